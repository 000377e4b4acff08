// `node db/stack.mjs start …`: the script entry of the embedded local
// Supabase, the same command as `alfred-act stack start …` (cli/stack.mjs).
// It exports nothing: the library is db/local-stack.mjs (`alfred-act/stack`),
// which imports no command-line code.
import { pathToFileURL } from 'node:url';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  import('../cli/stack.mjs')
    .then(({ runStackCommand }) => runStackCommand(process.argv.slice(2), { program: 'node db/stack.mjs' }))
    .then(
      (code) => process.exit(code),
      (error) => {
        console.error(error.message);
        process.exit(1);
      },
    );
}
