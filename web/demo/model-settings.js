// Which model the page talks to: one the user saved in this browser
// (localStorage), else the demo server's (proxied at /llm/v1, its key never
// reaches the page), else none.

const STORAGE_KEY = 'alfred-act-demo.model';
export const RESPONSE_FORMATS = ['json_schema', 'json_object', 'none'];

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled for this origin
  }
}

const isSettings = (value) =>
  typeof value?.baseUrl === 'string' && value.baseUrl !== '' && typeof value.model === 'string' && value.model !== '' && RESPONSE_FORMATS.includes(value.responseFormat);

/** The settings saved in this browser, or null. */
export function storedModelSettings() {
  try {
    const value = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? 'null');
    return isSettings(value) ? { baseUrl: value.baseUrl, apiKey: value.apiKey ?? '', model: value.model, responseFormat: value.responseFormat } : null;
  } catch {
    return null;
  }
}

/** Saves `settings` (`{ baseUrl, apiKey, model, responseFormat }`), or forgets them with null. */
export function storeModelSettings(settings) {
  const store = storage();
  if (!store) return false;
  if (settings === null) store.removeItem(STORAGE_KEY);
  else store.setItem(STORAGE_KEY, JSON.stringify(settings));
  return true;
}

/**
 * The model in use: `{ baseUrl, apiKey, model, responseFormat, source }`
 * (`source`: `browser` or `server`) or null. `serverModel` is /config.json's
 * `model`; its relative baseUrl is resolved against `origin`.
 */
export function activeModelSettings(serverModel, origin) {
  const stored = storedModelSettings();
  if (stored) return { ...stored, source: 'browser' };
  if (serverModel) return { baseUrl: new URL(serverModel.baseUrl, origin).href, apiKey: '', model: serverModel.model, responseFormat: serverModel.responseFormat, source: 'server' };
  return null;
}

/** One line for people: which model, where, and where its settings live. */
export function describeModel(settings) {
  if (!settings) return 'none configured';
  const where = settings.source === 'server' ? "the demo server's, key kept on the server" : 'saved in this browser';
  return `${settings.model} at ${settings.baseUrl} (${where})`;
}
