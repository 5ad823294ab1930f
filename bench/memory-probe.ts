// Preloaded into the measured server by bench/idle-memory.ts (`node --import`): answers a
// 'memory' message on the IPC channel with the process's own view of its memory, so the bench
// can split RSS into the JS heap and the rest without the server carrying any debug route.
import v8 from 'node:v8';

process.on('message', (msg: unknown) => {
  if (msg !== 'memory' || !process.send) return;
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const code = v8.getHeapCodeStatistics();
  process.send({
    rss: usage.rss,
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    mallocedMemory: heap.malloced_memory,
    peakMallocedMemory: heap.peak_malloced_memory,
    bytecodeAndMetadata: code.bytecode_and_metadata_size + code.code_and_metadata_size,
    spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size])),
  });
});
// The IPC channel must not keep the server alive on its own.
process.channel?.unref();
