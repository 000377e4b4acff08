// A real fetch that remembers every request it sends, so executor tests can
// count HTTP calls and inspect headers. Not a mock: each call goes to the
// network unless a test passes `respond` to stand in for one response.

/**
 * `recordingFetch()` → a fetch function with `.requests` (`[{ url, method,
 * headers, body, status }]`, headers lower-cased, `status` once answered) and `.reset()`. Options:
 * - `rewrite(url)`: the URL actually fetched (the recorded one is the URL asked for).
 * - `respond(url, init)`: a Response to return instead of fetching, or undefined.
 *
 * @example
 * const fetch = recordingFetch()
 * await act.execute('db_read', …)   // with createAct({ fetch, … })
 * assert.equal(fetch.requests.length, 1)
 */
export function recordingFetch({ rewrite, respond } = {}) {
  const requests = [];
  const recording = async (url, init = {}) => {
    // A Headers instance (supabase-js's fetch passes one) lists its own, lower-cased.
    const entries = init.headers instanceof Headers ? [...init.headers] : Object.entries(init.headers ?? {});
    const headers = Object.fromEntries(entries.map(([key, value]) => [key.toLowerCase(), value]));
    const entry = { url: String(url), method: init.method ?? 'GET', headers, body: init.body ?? null, status: null };
    requests.push(entry);
    const response = respond?.(String(url), init) ?? (await fetch(rewrite ? rewrite(String(url)) : url, init));
    entry.status = response.status;
    return response;
  };
  recording.requests = requests;
  recording.reset = () => {
    requests.length = 0;
  };
  return recording;
}

/** The decoded query parameters of a request URL, in order: `[[key, value], …]`. */
export function queryParams(url) {
  return [...new URL(url).searchParams.entries()];
}
