// Slackbot's side of the bot's MCP tools, without a model: a panel beside the conversation where the
// person picks one of the tools the bot lists, fills its arguments and calls it as themselves. The
// server (slackbot-mcp.ts) calls the bot's /mcp as Slackbot's MCP client does; the answer is shown as
// Slackbot would get it: the text, and the blocks drawn with the page's Block Kit renderer. A change
// is only proposed: its Confirm arrives from the bot in the person's messages with the app.
import { h, renderBlocks, renderMrkdwn } from './blockkit.js';
import { toolForm } from './tool-form.js';

/**
 * `pane`: the <aside> (see index.html); `send(path, body)`: posts as the current person;
 * `context(prefix)`: the renderer's context; `notice(text)`: a toast; `openMessages()`: shows the
 * person's messages with the app, where a change's confirmation arrives.
 */
export function createSlackbotPanel({ pane, send, context, notice, openMessages }) {
  const $ = (selector) => pane.querySelector(selector);
  const picker = $('#slackbot-tool');
  const results = $('#slackbot-results');
  let tools = [];
  let form;
  let counter = 0;

  const selected = () => tools.find((tool) => tool.name === picker.value);

  const showTool = () => {
    const tool = selected();
    $('#slackbot-description').textContent = tool?.description ?? '';
    $('#slackbot-problems').replaceChildren();
    form = tool === undefined ? undefined : toolForm(tool, `slackbot-${tool.name}`);
    $('#slackbot-fields').replaceChildren(...(form ? [form.node] : []));
  };

  const load = async () => {
    picker.replaceChildren(h('option', { value: '', textContent: 'Asking the bot for its tools…' }));
    const outcome = await send('/sandbox/slackbot/tools', {});
    tools = outcome.ok ? outcome.tools : [];
    picker.replaceChildren(
      ...(outcome.ok
        ? tools.map((tool) =>
            h('option', {
              value: tool.name,
              textContent: `${tool.title} (${tool.name})${tool.readOnly ? '' : ' · asks to confirm'}`,
            }),
          )
        : [h('option', { value: '', textContent: 'The bot did not list its tools' })]),
    );
    if (!outcome.ok) append(failureNode('tools/list', outcome.error ?? 'The sandbox server did not answer.'));
    showTool();
  };

  const append = (node) => {
    results.append(node);
    results.scrollTop = results.scrollHeight;
  };

  const entry = (className, asked, children) =>
    h('article', { className: `message slackbot-answer ${className}` }, [
      h('div', { className: 'avatar avatar-slackbot', textContent: 'S', 'aria-hidden': 'true' }),
      h('div', { className: 'body' }, [
        h('header', {}, [
          h('span', { className: 'author', textContent: 'Slackbot' }),
          className === 'error' ? h('span', { className: 'badge badge-error', textContent: 'ERROR' }) : null,
        ]),
        h('p', { className: 'slackbot-asked' }, [h('code', { textContent: asked })]),
        ...children,
      ]),
    ]);

  const failureNode = (asked, sentence) =>
    entry('error', asked, [h('p', { className: 'slackbot-failure', textContent: sentence })]);

  const resultNode = (tool, asked, result) => {
    counter += 1;
    const ctx = {
      ...context(`sb${counter}`),
      // The bot takes every button but a link out of a tool's blocks: a click here would be Slackbot's.
      act: async () =>
        notice('Buttons in a tool result do nothing: Slackbot shows them, the bot gets no click.'),
    };
    const hasBlocks = result.blocks.length > 0;
    return entry(result.isError ? 'error' : 'ok', asked, [
      hasBlocks
        ? h('div', { className: 'content blocks' }, [renderBlocks(result.blocks, ctx)])
        : h('div', { className: 'content mrkdwn slackbot-text' }, [renderMrkdwn(result.text, ctx)]),
      hasBlocks
        ? h('details', { className: 'slackbot-model-text' }, [
            h('summary', { textContent: 'The text (what the model reads)' }),
            h('pre', { textContent: result.text }),
          ])
        : null,
      !tool.readOnly && !result.isError
        ? h('button', {
            type: 'button',
            className: 'link-button slackbot-open-messages',
            textContent: 'Open your messages with the app to confirm',
            onclick: openMessages,
          })
        : null,
    ]);
  };

  const call = async () => {
    const tool = selected();
    if (tool === undefined || form === undefined) return;
    const read = form.read();
    const problems = $('#slackbot-problems');
    problems.replaceChildren(...(read.problems ?? []).map((text) => h('li', { textContent: text })));
    if (read.problems) return;
    const asked = `${tool.name} ${JSON.stringify(read.arguments)}`;
    const button = $('#slackbot-call');
    button.disabled = true;
    button.textContent = 'Calling…';
    const outcome = await send('/sandbox/slackbot/call', { tool: tool.name, arguments: read.arguments });
    button.disabled = false;
    button.textContent = 'Call';
    append(
      outcome.ok
        ? resultNode(tool, asked, outcome.result)
        : failureNode(asked, outcome.error ?? 'The sandbox server did not answer.'),
    );
  };

  picker.addEventListener('change', showTool);
  $('#slackbot-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void call();
  });
  $('#slackbot-reload').addEventListener('click', () => void load());

  const open = () => {
    pane.hidden = false;
    if (tools.length === 0) void load();
  };
  const close = () => {
    pane.hidden = true;
  };

  return {
    open,
    close,
    /** The sidebar's entry under the apps: opens or closes the panel, then `changed()` redraws. */
    navItem(changed) {
      return h('li', {}, [
        h('button', {
          type: 'button',
          className: `nav-item${pane.hidden ? '' : ' current'}`,
          textContent: '✨ Slackbot (the app’s tools)',
          title: 'Call the app’s tools as Slackbot’s MCP client does, without a model',
          onclick: () => {
            if (pane.hidden) open();
            else close();
            changed();
          },
        }),
      ]);
    },
    /** Another person on the page: the answers were for the one before. */
    forget() {
      results.replaceChildren();
    },
  };
}
