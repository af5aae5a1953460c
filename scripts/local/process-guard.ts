/**
 * The local runtime hosts every Lambda, consumer and poller in one process. In AWS a promise
 * rejection nobody awaited fails one invocation; here Node's default would end the whole
 * process, and with it every chat of the inbox (issue 23: the fault harness's runtime died after
 * a DynamoDB Local restart). `logStrayRejections` keeps the process up and logs each such
 * rejection once per distinct message, with its stack, so its origin can be fixed.
 * Thrown (synchronous) uncaught exceptions keep Node's default: the process ends.
 * Used by `npm start` (start.ts) and the harness's runtime child; never inside tests, where
 * vitest reports stray rejections as failures.
 * @returns how many stray rejections were seen so far
 */
export function logStrayRejections(label: string): () => number {
  let seen = 0;
  const logged = new Set<string>();
  process.on('unhandledRejection', (reason) => {
    seen++;
    const e = reason instanceof Error ? reason : new Error(String(reason));
    if (logged.has(e.message)) return;
    logged.add(e.message);
    console.error(`[${label}] unhandled rejection (the process keeps running): ${e.stack ?? e.message}`);
  });
  return () => seen;
}
