// The same worker with its per-user limits counted in Durable Objects, shared
// by every isolate: use it as `main` in wrangler.jsonc, with the LimitCounter
// class bound as LIMITS (docs/worker-auth.md has the lines). Cloudflare only.
import { createHandler } from 'alfred-act/worker';
import { durableLimitStore } from 'alfred-act/worker/durable';
import domain from '../domain.json' with { type: 'json' };

export { LimitCounter } from 'alfred-act/worker/durable';

export default createHandler({ domain, limitStore: durableLimitStore('LIMITS') });
