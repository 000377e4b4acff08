// The alfred-act edge worker on your own database: copy this folder into your
// project, `npm install alfred-act`, write ../domain.json with
// `npx alfred-act domain pull --url … --key … --out domain.json`, set the
// variables and deploy (README.md). /act/execute, /act/turn and /mcp then
// serve your tables, as each request's signed-in user.
import { createHandler } from 'alfred-act/worker';
import domain from '../domain.json' with { type: 'json' };

export default createHandler({ domain });
