// Modals and confirm dialogs. A modal is the top view of the person's stack, rendered from the view
// JSON with its inputs; what is typed is kept per view, and after views.update Slack keeps what was
// typed in inputs whose block_id and action_id stayed, so this does too.
import { h, renderBlocks, renderText } from './blockkit.js';

function initialValue(element) {
  if (typeof element.initial_value === 'string') return element.initial_value;
  if (element.initial_option) return element.initial_option.value;
  if (Array.isArray(element.initial_options)) return element.initial_options.map((option) => option.value);
  return element.initial_user ?? element.initial_date ?? null;
}

function inputElements(view) {
  return (view.blocks ?? [])
    .filter((block) => block.type === 'input' && block.element)
    .map((block) => [block.block_id, block.element.action_id]);
}

/**
 * `dialog`: the <dialog> to render into; `context(prefix)`: the renderer's context for the page;
 * `send(path, body)`: posts to the sandbox server as the current person.
 */
export function createModalDialog({ dialog, context, send }) {
  /** viewId -> { hash, values: { blockId: { actionId: value } } } */
  const typed = new Map();
  let shownKey = '';
  let shown;

  const valuesOf = (pageView) => {
    let entry = typed.get(pageView.id);
    if (entry === undefined) {
      entry = { hash: pageView.hash, values: {} };
      typed.set(pageView.id, entry);
    }
    if (entry.hash !== pageView.hash) {
      const kept = {};
      for (const [blockId, actionId] of inputElements(pageView.view)) {
        const value = entry.values[blockId]?.[actionId];
        if (value !== undefined) kept[blockId] = { ...kept[blockId], [actionId]: value };
      }
      entry.values = kept;
      entry.hash = pageView.hash;
    }
    return entry.values;
  };

  const close = (top, all) => void send('/sandbox/close', { viewId: top.id, all });

  // Escape is the close box: every view of the stack closes.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    if (shown) close(shown, true);
  });

  const render = (top) => {
    if (top === undefined) {
      shownKey = '';
      shown = undefined;
      if (dialog.open) dialog.close();
      return;
    }
    const nextKey = JSON.stringify([top.id, top.hash, top.errors, top.problem]);
    if (nextKey === shownKey && dialog.open) return;
    shownKey = nextKey;
    shown = top;
    const view = top.view;
    const values = valuesOf(top);
    const blockContext = {
      ...context(`v${top.id}`),
      errors: top.errors,
      input: {
        value: (blockId, element) => {
          const entered = values[blockId];
          return entered && element.action_id in entered ? entered[element.action_id] : initialValue(element);
        },
        set: (blockId, actionId, value) => {
          values[blockId] = { ...values[blockId], [actionId]: value };
        },
      },
      act: (element, blockId, selected) =>
        send('/sandbox/action', {
          container: { kind: 'view', viewId: top.id },
          blockId,
          actionId: element.action_id,
          selected,
          values,
        }),
    };
    const submit = view.submit
      ? h('button', {
          type: 'submit',
          className: 'bk-button bk-primary submit',
          textContent: view.submit.text,
        })
      : null;
    const form = h('form', { className: 'modal-form', noValidate: true }, [
      h('header', { className: 'modal-header' }, [
        h('h2', { textContent: view.title?.text ?? '' }),
        h('button', {
          type: 'button',
          className: 'close-x',
          'aria-label': 'Close',
          textContent: '×',
          onclick: () => close(top, true),
        }),
      ]),
      top.problem ? h('div', { className: 'modal-problem', role: 'alert', textContent: top.problem }) : null,
      h('div', { className: 'modal-body blocks' }, [renderBlocks(view.blocks ?? [], blockContext)]),
      h('footer', { className: 'modal-footer' }, [
        h('button', {
          type: 'button',
          className: 'bk-button cancel',
          textContent: view.close?.text ?? 'Cancel',
          onclick: () => close(top, false),
        }),
        submit,
      ]),
    ]);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (submit === null) return;
      submit.disabled = true;
      submit.classList.add('busy');
      await send('/sandbox/submit', { viewId: top.id, values });
      submit.disabled = false;
      submit.classList.remove('busy');
    });
    dialog.replaceChildren(form);
    if (!dialog.open) dialog.showModal();
    dialog.querySelector('input, textarea, select')?.focus();
  };

  return {
    render,
    /** Drops what was typed (another person takes over the page). */
    forget() {
      typed.clear();
      shownKey = '';
    },
  };
}

/** A confirm dialog from a Block Kit confirm object; resolves true when confirmed. */
export function showConfirm(dialog, confirm, context) {
  return new Promise((resolve) => {
    const finish = (answer) => {
      dialog.close();
      resolve(answer);
    };
    const style = confirm.style === 'danger' ? ' bk-danger' : ' bk-primary';
    dialog.replaceChildren(
      h('form', { className: 'confirm-form', method: 'dialog' }, [
        h('h2', { textContent: confirm.title?.text ?? 'Are you sure?' }),
        renderText(confirm.text, context, 'div'),
        h('footer', { className: 'modal-footer' }, [
          h('button', {
            type: 'button',
            className: 'bk-button deny',
            textContent: confirm.deny?.text ?? 'Cancel',
            onclick: () => finish(false),
          }),
          h('button', {
            type: 'button',
            className: `bk-button confirm${style}`,
            textContent: confirm.confirm?.text ?? 'Yes',
            onclick: () => finish(true),
          }),
        ]),
      ]),
    );
    dialog.oncancel = (event) => {
      event.preventDefault();
      finish(false);
    };
    dialog.showModal();
  });
}
