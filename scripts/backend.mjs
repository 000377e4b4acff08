// The backend chooser moved to cli/backend.mjs (the CLI ships in the package).
export { openBackend } from '../cli/backend.mjs';
