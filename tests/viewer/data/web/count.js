export const count = (list) => (list ? list.length : 0);
