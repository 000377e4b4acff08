// The names README examples may use without declaring them: what a reader's
// own code around the example would have. tests/js/readme.test.mjs compiles
// every ```js / ```ts block of README.md with this file. A block that needs
// something else says so in a marker comment on the line before its fence:
//   <!-- readme-check: prelude declare let saved: TurnState | undefined; -->
//   <!-- readme-check: skip (why the block cannot compile) -->
// Types named in a prelude are imported from 'alfred-act' automatically.
import type { LanguageModel } from 'ai';
import type { RegistryState } from 'alfred-act';

declare global {
  /** The signed-in user's id (a UUID). */
  const userId: string;
  /** The project's anon / publishable key. */
  const anonKey: string;
  /** The signed-in user's JWT. */
  const jwt: string;
  /** The signed-in user's access token (the same JWT, named as createAct names it). */
  const accessToken: string;
  /** Any AI SDK language model, e.g. openai('gpt-4o-mini') from @ai-sdk/openai. */
  const model: LanguageModel;
  /** A Supabase project URL or a PostgREST root. */
  const url: string;
  const SUPABASE_URL: string;
  /** A supabase-js session. */
  const session: { access_token: string };
  /** The registry state kept from the last turn. */
  const savedState: RegistryState | undefined;
  /** A PostgREST response. */
  const response: Response;
  /** The reader's way of handing an error back to the model. */
  function toolResultForTheModel(error: { code: string; message: string; path: string; hint: string }): unknown;
}
