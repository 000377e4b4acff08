const t0 = performance.now();
await import('../web/src/index.node.js');
console.log('import', (performance.now() - t0).toFixed(1));
