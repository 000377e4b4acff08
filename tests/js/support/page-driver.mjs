// Driving a Playwright page under --disallow-code-generation-from-strings,
// which the JS suite runs with: Playwright's locators, click() and fill()
// pass functions to the page, which it cannot serialize there. Only string
// expressions, the mouse and the keyboard are used: real input events, the
// way a person clicks and types.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @example
 * const ui = pageDriver(page)
 * await ui.click('#send')
 * await ui.waitFor("document.querySelectorAll('.message').length === 2", 'the reply')
 */
export function pageDriver(page, { timeout = 20_000 } = {}) {
  const js = (expression) => page.evaluate(expression);
  const one = (selector) => `document.querySelector(${JSON.stringify(selector)})`;
  const all = (selector) => `[...document.querySelectorAll(${JSON.stringify(selector)})]`;

  /** Resolves once the page expression is truthy; rejects after `timeout` with `what`. */
  async function waitFor(expression, what = expression) {
    const deadline = Date.now() + timeout;
    while (!(await js(`Boolean(${expression})`))) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
      await sleep(50);
    }
  }

  /** A mouse click in the middle of the element, once it exists and is enabled. */
  async function click(selector) {
    await waitFor(`${one(selector)} && !${one(selector)}.disabled`, `${selector} to be there and enabled`);
    const box = JSON.parse(
      await js(`(() => { const element = ${one(selector)}; element.scrollIntoView({ block: 'center' }); return JSON.stringify(element.getBoundingClientRect()); })()`),
    );
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }

  /** Replaces the field's text as typed input. */
  async function fill(selector, text) {
    await click(selector);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  /** Chooses the option whose text is `label` and fires `change`, as picking it does. */
  async function select(selector, label) {
    const found = await js(`(() => {
      const field = ${one(selector)};
      const option = [...field.options].find((item) => item.text === ${JSON.stringify(label)});
      if (!option) return false;
      field.value = option.value;
      field.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    })()`);
    if (!found) throw new Error(`${selector} has no option ${label}`);
  }

  return {
    waitFor,
    click,
    fill,
    select,
    /** The element's rendered text, or null when it is missing. */
    text: (selector) => js(`${one(selector)}?.innerText ?? null`),
    texts: async (selector) => JSON.parse(await js(`JSON.stringify(${all(selector)}.map((element) => element.innerText))`)),
    count: (selector) => js(`${all(selector)}.length`),
    value: (selector) => js(`${one(selector)}.value`),
    evaluate: js,
  };
}
