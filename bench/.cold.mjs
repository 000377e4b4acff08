const t0 = performance.now();
const { loadCore } = await import('../web/src/index.node.js');
const t1 = performance.now();
const core = await loadCore();
const t2 = performance.now();
console.log('import', (t1 - t0).toFixed(1), 'loadCore', (t2 - t1).toFixed(1));
