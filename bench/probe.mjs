// Preloaded into the measured server by the benches (`node --import`; plain JavaScript, like the
// compiled server it rides along with): answers requests on the IPC
// channel with the process's own view of itself, so the server carries no debug route.
//   'memory'        -> process.memoryUsage() and V8 heap figures
//   'profile-start' -> starts the V8 CPU profiler
//   'profile-stop'  -> stops it and answers { profile } (the .cpuprofile JSON)
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';

/** @type {Session | undefined} */
let session;

async function answer(msg) {
  if (msg === 'memory') {
    const usage = process.memoryUsage();
    return {
      rss: usage.rss,
      heapTotal: usage.heapTotal,
      heapUsed: usage.heapUsed,
      external: usage.external,
      arrayBuffers: usage.arrayBuffers,
      mallocedMemory: v8.getHeapStatistics().malloced_memory,
    };
  }
  if (msg === 'profile-start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs between samples: fine enough for a request that takes tens of microseconds.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    return { started: true };
  }
  if (msg === 'profile-stop' && session) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = undefined;
    return { profile };
  }
  return { error: `unknown probe request ${String(msg)}` };
}

process.on('message', (msg) => {
  answer(msg).then(
    (reply) => process.send?.(reply),
    (err) => process.send?.({ error: String(err) }),
  );
});
// The IPC channel must not keep the server alive on its own.
process.channel?.unref();
