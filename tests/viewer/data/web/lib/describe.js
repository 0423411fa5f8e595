// placeholder module in a subdirectory, importing back up
import {count} from '../count.js';

export function describe(data) {
  return data ? `reports: ${count(data.reports)} </script> stays inside` : 'no data';
}
