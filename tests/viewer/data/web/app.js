// placeholder entry module
import {describe} from './lib/describe.js';

const block = document.getElementById('gpuscope-data');
document.getElementById('out').textContent = describe(block ? JSON.parse(block.textContent) : null);
