// The resolve hook tests/matrix/peers.mjs registers (it runs on the loader
// thread). A peer missing from the matrix folder is an error, never a silent
// fall-back to the root's copy.
const PEERS = ['ai', 'openai', '@supabase/supabase-js', '@modelcontextprotocol/sdk', 'zod'];

let root;
let dir;

export function initialize(data) {
  ({ root, dir } = data);
}

const isPeer = (specifier) => PEERS.some((name) => specifier === name || specifier.startsWith(`${name}/`));
// A file of this repository, not of a dependency.
const isOwnFile = (parentURL) => parentURL?.startsWith(root) && !parentURL.slice(root.length).includes('/node_modules/');

export async function resolve(specifier, context, nextResolve) {
  if (isPeer(specifier) && isOwnFile(context.parentURL)) {
    return nextResolve(specifier, { ...context, parentURL: new URL('package.json', dir).href });
  }
  return nextResolve(specifier, context);
}
