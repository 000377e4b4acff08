// Progress of a running turn, in the two forms a UI wants: a callback, or an
// async iterator over the same events.

/**
 * Runs `start(onEvent, signal)` and yields every event it emits, in order.
 * Breaking out of the `for await` cancels the run through `signal`; the
 * value `start` resolves to is not yielded (its last event carries it).
 */
export async function* eventsOf(start, signal) {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(signal.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onOuterAbort, { once: true });

  const queue = [];
  let wake = null;
  let finished = false;
  let failure = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  start((event) => {
    queue.push(event);
    notify();
  }, controller.signal).then(
    () => {
      finished = true;
      notify();
    },
    (error) => {
      failure = { error };
      finished = true;
      notify();
    },
  );
  try {
    while (true) {
      if (queue.length > 0) {
        yield queue.shift();
        continue;
      }
      if (finished) break;
      await new Promise((resolve) => {
        wake = resolve;
      });
    }
    if (failure) throw failure.error;
  } finally {
    signal?.removeEventListener('abort', onOuterAbort);
    if (!finished) controller.abort(new DOMException('the event consumer stopped', 'AbortError'));
  }
}
