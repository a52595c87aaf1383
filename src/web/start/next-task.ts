/** The parts of the Prioritized Task Scheduling API's `scheduler` this module uses (Chrome 129+). */
interface TaskScheduler {
  yield?: () => Promise<void>;
}

/**
 * Resolves in a later task of the browser's event loop, so that what the page does next runs as a task of its own:
 * between the two the browser can paint and handle input (issue #20, decision 0070). `scheduler.yield()` where the
 * browser has it (its continuation goes ahead of other tasks the page queued meanwhile), else a macrotask through a
 * MessageChannel (unlike `setTimeout`, never clamped to 4 ms).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as typeof globalThis & { scheduler?: TaskScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
