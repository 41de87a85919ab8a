// Block Kit to DOM, for the blocks and elements the bot uses: header, section (text, fields,
// accessory), actions, context, divider, image, input and data visualization (charts, chart.js)
// blocks; buttons (styles, confirm dialogs, links), overflow menus, static and users selects,
// checkboxes, radio buttons and text, number, e-mail and date inputs. Every string is set as text
// (textContent, element properties), never as HTML, so nothing the bot or the API sends can inject
// markup into the page.
import { renderChart } from './chart.js';
import { formatSlackDate, isSafeUrl, parseMrkdwn } from './mrkdwn.js';

/**
 * What rendering needs from the page:
 *   people: Map of user id -> { realName, handle }; channels: Map of channel id -> { name }
 *   now(): epoch ms, for relative dates
 *   act(element, blockId, selected): an element was used outside an input block; returns a promise
 *   confirm(confirm): shows a confirm dialog; resolves true when confirmed
 *   input: in a view, { value(blockId, element), set(blockId, actionId, value) } for input elements
 *   errors: field errors by block_id (response_action "errors" and Slack's own checks)
 *   idPrefix: makes element ids unique on the page
 */

/** Creates an element; `props` are DOM properties (className, textContent, type ...), never HTML. */
export function h(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role')
      node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function personName(ctx, id) {
  const person = ctx.people?.get(id);
  return person ? person.realName : id;
}

function mrkdwnNode(node, ctx) {
  switch (node.type) {
    case 'text':
      return document.createTextNode(node.text);
    case 'br':
      return h('br');
    case 'bold':
      return h(
        'b',
        {},
        node.children.map((child) => mrkdwnNode(child, ctx)),
      );
    case 'italic':
      return h(
        'i',
        {},
        node.children.map((child) => mrkdwnNode(child, ctx)),
      );
    case 'strike':
      return h(
        's',
        {},
        node.children.map((child) => mrkdwnNode(child, ctx)),
      );
    case 'code':
      return h('code', { textContent: node.text });
    case 'pre':
      return h('pre', { textContent: node.text });
    case 'quote':
      return h(
        'blockquote',
        {},
        node.children.map((child) => mrkdwnNode(child, ctx)),
      );
    case 'link':
      return isSafeUrl(node.url)
        ? h('a', { href: node.url, target: '_blank', rel: 'noopener noreferrer', textContent: node.label })
        : document.createTextNode(node.label);
    case 'user':
      return h('span', { className: 'mention', textContent: `@${personName(ctx, node.id)}` });
    case 'channel': {
      const name = ctx.channels?.get(node.id)?.name ?? node.label ?? node.id;
      return h('span', { className: 'mention', textContent: `#${name}` });
    }
    case 'special':
      return h('span', { className: 'mention', textContent: node.name });
    case 'date': {
      const text = formatSlackDate(node.unix, node.format, { now: ctx.now?.() }) ?? node.fallback;
      const time = h('time', {
        dateTime: Number.isFinite(node.unix) ? new Date(node.unix * 1000).toISOString() : undefined,
        title: node.fallback,
        textContent: text,
      });
      return node.link && isSafeUrl(node.link)
        ? h('a', { href: node.link, target: '_blank', rel: 'noopener noreferrer' }, [time])
        : time;
    }
    default:
      return document.createTextNode('');
  }
}

export function renderMrkdwn(text, ctx) {
  const fragment = document.createDocumentFragment();
  for (const node of parseMrkdwn(text)) fragment.append(mrkdwnNode(node, ctx));
  return fragment;
}

/** A text object: mrkdwn is formatted, plain_text shown exactly as sent. */
export function renderText(text, ctx, tag = 'span') {
  if (!text || typeof text.text !== 'string') return h(tag);
  if (text.type === 'mrkdwn') return h(tag, { className: 'mrkdwn' }, [renderMrkdwn(text.text, ctx)]);
  return h(tag, { textContent: text.text });
}

const plain = (text) => (text && typeof text.text === 'string' ? text.text : '');

function optionsOf(element) {
  if (Array.isArray(element.option_groups))
    return element.option_groups.flatMap((group) => group.options ?? []);
  return element.options ?? [];
}

/** Asks first when the element carries a confirm dialog; resolves whether to go on. */
async function confirmed(element, ctx) {
  return element.confirm ? ctx.confirm(element.confirm) : true;
}

function busyWhile(node, promise) {
  node.classList.add('busy');
  Promise.resolve(promise).finally(() => node.classList.remove('busy'));
}

function button(element, blockId, ctx) {
  const node = h('button', {
    type: 'button',
    className: `bk-button${element.style ? ` bk-${element.style}` : ''}`,
    textContent: plain(element.text),
    'aria-label': element.accessibility_label,
    'data-action-id': element.action_id,
  });
  node.addEventListener('click', async () => {
    if (!(await confirmed(element, ctx))) return;
    if (element.url && isSafeUrl(element.url)) window.open(element.url, '_blank', 'noopener,noreferrer');
    busyWhile(node, ctx.act(element, blockId, null));
  });
  return node;
}

function overflow(element, blockId, ctx) {
  const menu = h('ul', { className: 'bk-menu', role: 'menu', hidden: true });
  const toggle = h('button', {
    type: 'button',
    className: 'bk-button bk-overflow-toggle',
    textContent: '⋯',
    'aria-label': 'More actions',
    'aria-haspopup': 'menu',
    'aria-expanded': 'false',
    'data-action-id': element.action_id,
  });
  const close = () => {
    menu.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
  };
  toggle.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    toggle.setAttribute('aria-expanded', String(!menu.hidden));
  });
  for (const option of optionsOf(element)) {
    const item = h('button', {
      type: 'button',
      role: 'menuitem',
      className: 'bk-menu-item',
      textContent: plain(option.text),
      'data-value': option.value,
    });
    item.addEventListener('click', async () => {
      close();
      if (!(await confirmed(element, ctx))) return;
      busyWhile(toggle, ctx.act(element, blockId, option.value));
    });
    menu.append(h('li', { role: 'none' }, [item]));
  }
  return h('div', { className: 'bk-overflow' }, [toggle, menu]);
}

function selectNode(element, choices, current, id) {
  const select = h('select', { className: 'bk-select', id, 'data-action-id': element.action_id });
  select.append(
    h('option', { value: '', textContent: plain(element.placeholder) || 'Choose…', disabled: true }),
  );
  const add = (parent, option) =>
    parent.append(h('option', { value: option.value, textContent: plain(option.text) }));
  if (Array.isArray(element.option_groups)) {
    for (const group of element.option_groups) {
      const node = h('optgroup', { label: plain(group.label) });
      for (const option of group.options ?? []) add(node, option);
      select.append(node);
    }
  } else {
    for (const option of choices) add(select, option);
  }
  select.value = current ?? '';
  return select;
}

function peopleChoices(ctx) {
  return [...(ctx.people?.entries() ?? [])].map(([id, person]) => ({
    value: id,
    text: { type: 'plain_text', text: person.realName },
  }));
}

function choiceGroup(element, kind, current, name) {
  const chosen = new Set(Array.isArray(current) ? current : current == null ? [] : [current]);
  const group = h('div', {
    className: `bk-${kind}`,
    role: kind === 'radio' ? 'radiogroup' : 'group',
    'data-action-id': element.action_id,
  });
  for (const option of element.options ?? []) {
    const box = h('input', { type: kind, name, value: option.value, checked: chosen.has(option.value) });
    group.append(
      h('label', { className: 'bk-choice' }, [
        box,
        h('span', {}, [
          renderText(option.text, {}),
          option.description ? h('small', { textContent: plain(option.description) }) : null,
        ]),
      ]),
    );
  }
  const read = () => {
    const values = [...group.querySelectorAll('input:checked')].map((box) => box.value);
    return kind === 'radio' ? (values[0] ?? null) : values;
  };
  return { group, read };
}

/** An interactive element; in an input block it keeps its value in ctx.input instead of acting. */
function renderElement(element, blockId, ctx, inInput) {
  const id = `${ctx.idPrefix ?? 'bk'}-${blockId}-${element.action_id}`;
  const current = inInput ? ctx.input.value(blockId, element) : undefined;
  const store = (value) => ctx.input.set(blockId, element.action_id, value);
  switch (element.type) {
    case 'button':
      return button(element, blockId, ctx);
    case 'overflow':
      return overflow(element, blockId, ctx);
    case 'static_select':
    case 'users_select': {
      const choices = element.type === 'users_select' ? peopleChoices(ctx) : optionsOf(element);
      const initial = element.initial_option?.value ?? element.initial_user;
      const select = selectNode(element, choices, inInput ? current : initial, id);
      select.addEventListener('change', async () => {
        if (inInput) return store(select.value || null);
        if (!(await confirmed(element, ctx))) {
          select.value = initial ?? '';
          return;
        }
        busyWhile(select, ctx.act(element, blockId, select.value));
      });
      return select;
    }
    case 'checkboxes':
    case 'radio_buttons': {
      const kind = element.type === 'checkboxes' ? 'checkbox' : 'radio';
      const initial =
        kind === 'checkbox'
          ? (element.initial_options ?? []).map((option) => option.value)
          : element.initial_option?.value;
      const { group, read } = choiceGroup(element, kind, inInput ? current : initial, id);
      group.addEventListener('change', () => {
        if (inInput) store(read());
        else busyWhile(group, ctx.act(element, blockId, read()));
      });
      return group;
    }
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'datepicker': {
      const multiline = element.type === 'plain_text_input' && element.multiline;
      const field = h(multiline ? 'textarea' : 'input', {
        id,
        className: 'bk-text-input',
        placeholder: plain(element.placeholder),
        'data-action-id': element.action_id,
        ...(multiline
          ? { rows: 4 }
          : {
              type:
                { email_text_input: 'email', url_text_input: 'url', datepicker: 'date' }[element.type] ??
                'text',
              inputMode: element.type === 'number_input' ? 'decimal' : undefined,
            }),
      });
      field.value = current ?? '';
      field.addEventListener('input', () => store(field.value === '' ? null : field.value));
      return field;
    }
    case 'image':
      return h('span', { className: 'bk-image', textContent: `🖼 ${element.alt_text ?? 'image'}` });
    default:
      return h('span', {
        className: 'bk-unsupported',
        textContent: `[${element.type} is not shown in the sandbox]`,
      });
  }
}

function renderBlock(block, ctx) {
  const blockId = block.block_id ?? '';
  const wrap = (className, children) => h('div', { className, 'data-block-id': blockId }, children);
  switch (block.type) {
    case 'header':
      return wrap('bk-block bk-header', [h('h3', { textContent: plain(block.text) })]);
    case 'divider':
      return wrap('bk-block bk-divider', [h('hr')]);
    case 'section':
      return wrap('bk-block bk-section', [
        h('div', { className: 'bk-section-main' }, [
          block.text ? renderText(block.text, ctx, 'div') : null,
          Array.isArray(block.fields)
            ? h(
                'div',
                { className: 'bk-fields' },
                block.fields.map((field) => renderText(field, ctx, 'div')),
              )
            : null,
        ]),
        block.accessory
          ? h('div', { className: 'bk-accessory' }, [renderElement(block.accessory, blockId, ctx, false)])
          : null,
      ]);
    case 'actions':
      return wrap(
        'bk-block bk-actions',
        (block.elements ?? []).map((element) => renderElement(element, blockId, ctx, false)),
      );
    case 'context':
      return wrap(
        'bk-block bk-context',
        (block.elements ?? []).map((element) =>
          element.type === 'image'
            ? h('span', { className: 'bk-image', textContent: `🖼 ${element.alt_text ?? ''}` })
            : renderText(element, ctx),
        ),
      );
    case 'image':
      return wrap('bk-block bk-image-block', [
        block.title ? renderText(block.title, ctx, 'div') : null,
        h('span', { className: 'bk-image', textContent: `🖼 ${block.alt_text ?? 'image'}` }),
      ]);
    case 'input': {
      const element = block.element ?? {};
      const error = ctx.errors?.[blockId];
      const id = `${ctx.idPrefix ?? 'bk'}-${blockId}-${element.action_id}`;
      const label = h('label', { className: 'bk-label', htmlFor: id }, [
        plain(block.label),
        block.optional ? h('span', { className: 'bk-optional', textContent: ' (optional)' }) : null,
      ]);
      return wrap(`bk-block bk-input${error ? ' has-error' : ''}`, [
        label,
        ctx.input ? renderElement(element, blockId, ctx, true) : null,
        block.hint ? h('div', { className: 'bk-hint', textContent: plain(block.hint) }) : null,
        error ? h('div', { className: 'bk-error', role: 'alert', textContent: error }) : null,
      ]);
    }
    case 'data_visualization':
      return wrap('bk-block bk-chart-block', [renderChart(block)]);
    default:
      return wrap('bk-block bk-unsupported', [`[a ${String(block.type)} block is not shown in the sandbox]`]);
  }
}

export function renderBlocks(blocks, ctx) {
  const fragment = document.createDocumentFragment();
  for (const block of blocks ?? []) fragment.append(renderBlock(block, ctx));
  return fragment;
}
