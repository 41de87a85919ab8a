// The sandbox page: a small Slack client for one workspace. It shows channels, the app's Home and
// Messages tabs, threads and modals, sends what the person does to the sandbox server (which signs
// it and passes it to the bot as Slack would), and redraws from the server's event stream.
import { h, renderBlocks, renderMrkdwn } from './blockkit.js';
import { createModalDialog, showConfirm } from './dialogs.js';
import { createSlackbotPanel } from './slackbot.js';

const query = new URLSearchParams(location.search);
const state = {
  me: query.get('as') ?? 'U0ADA',
  app: { name: 'Paperspace Ops', botUserId: '' },
  team: { name: 'Sandbox workspace' },
  people: [],
  channels: [],
  /** `${channel} ${ts}` -> message */
  messages: new Map(),
  /** ts -> ephemeral message (only this person's) */
  ephemerals: new Map(),
  modals: [],
  home: null,
  view: { kind: 'channel', id: 'C0GENERAL' },
  thread: null,
  dismissed: new Set(),
  connected: false,
  /** How far the sandbox clock runs ahead of real time; null when the app behind the page keeps real time. */
  clockOffsetMs: null,
};
let source;

const $ = (selector) => document.querySelector(selector);
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The sandbox's time: real time plus how far its clock was moved (none when the app keeps real time). */
const sandboxNow = () => Date.now() + (state.clockOffsetMs ?? 0);
const imChannel = () => `D${state.me.slice(1)}`;

// ---------------------------------------------------------------- server

async function send(path, body) {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: state.me, ...body }),
    });
    const outcome = await response.json();
    if (!outcome.ok) toast(outcome.error);
    return outcome;
  } catch (error) {
    toast(`The sandbox server did not answer (${error.message}).`);
    return { ok: false };
  }
}

function connect() {
  source?.close();
  state.connected = false;
  source = new EventSource(
    `/sandbox/events?user=${encodeURIComponent(state.me)}&tz=${encodeURIComponent(timeZone)}`,
  );
  source.addEventListener('snapshot', (event) => {
    const snapshot = JSON.parse(event.data);
    Object.assign(state, {
      me: snapshot.me,
      app: snapshot.app,
      team: snapshot.team,
      people: snapshot.people,
      channels: snapshot.channels,
      messages: new Map(snapshot.messages.map((message) => [key(message), message])),
      ephemerals: new Map(snapshot.ephemerals.map((message) => [message.ts, message])),
      modals: snapshot.modals,
      home: snapshot.home,
      clockOffsetMs: snapshot.clock === null ? null : snapshot.clock.offsetMs,
      connected: true,
    });
    render();
  });
  source.addEventListener('change', (event) => {
    apply(JSON.parse(event.data));
    render();
  });
  source.addEventListener('error', () => {
    state.connected = false;
    renderStatus();
  });
}

const key = (message) => `${message.channel} ${message.ts}`;

function apply(change) {
  switch (change.type) {
    case 'message':
      state.messages.set(key(change.message), change.message);
      break;
    case 'message_deleted':
      state.messages.delete(`${change.channel} ${change.ts}`);
      break;
    case 'ephemeral':
      state.ephemerals.set(change.message.ts, change.message);
      break;
    case 'ephemeral_deleted':
      state.ephemerals.delete(change.ts);
      break;
    case 'modals':
      state.modals = change.stack;
      break;
    case 'home':
      state.home = change.view;
      break;
    case 'notice':
      toast(change.text);
      break;
    case 'clock':
      state.clockOffsetMs = change.offsetMs;
      break;
  }
}

// ---------------------------------------------------------------- rendering helpers

const peopleMap = () =>
  new Map([
    ...state.people.map((person) => [person.id, person]),
    [state.app.botUserId, { realName: state.app.name, handle: state.app.handle }],
  ]);
const channelMap = () => new Map(state.channels.map((channel) => [channel.id, channel]));

function compareTs(a, b) {
  const [aSeconds, aMicros] = a.split('.').map(Number);
  const [bSeconds, bMicros] = b.split('.').map(Number);
  return aSeconds - bSeconds || aMicros - bMicros;
}

function baseContext(prefix) {
  return {
    people: peopleMap(),
    channels: channelMap(),
    // "Today" and "Tomorrow" in a message are judged by the sandbox's time, the bot's "now", not the browser's.
    now: sandboxNow,
    confirm: (confirm) => showConfirm($('#confirm'), confirm, baseContext('c')),
    idPrefix: prefix,
  };
}

function messageContext(message) {
  const container = message.ephemeral
    ? { kind: 'ephemeral', ts: message.ts }
    : { kind: 'message', channel: message.channel, ts: message.ts };
  return {
    ...baseContext(`m${message.ts.replace('.', '')}`),
    act: (element, blockId, selected) =>
      send('/sandbox/action', { container, blockId, actionId: element.action_id, selected }),
  };
}

/** An app's unfurl under a person's message: its buttons act on the unfurl, as Slack sends them. */
function unfurlNode(message, unfurl, index) {
  const container = { kind: 'unfurl', channel: message.channel, ts: message.ts, url: unfurl.url };
  const context = {
    ...baseContext(`u${message.ts.replace('.', '')}-${index}`),
    act: (element, blockId, selected) =>
      send('/sandbox/action', { container, blockId, actionId: element.action_id, selected }),
  };
  return h('div', { className: 'unfurl blocks', 'data-url': unfurl.url }, [
    renderBlocks(unfurl.blocks, context),
  ]);
}

function authorOf(message) {
  switch (message.author.kind) {
    case 'bot':
      return { name: state.app.name, badge: 'APP', avatar: 'P' };
    case 'slackbot':
      return { name: 'Slackbot', badge: null, avatar: 'S' };
    default: {
      const person = state.people.find((candidate) => candidate.id === message.author.userId);
      const name = person?.realName ?? message.author.userId;
      return { name, badge: null, avatar: name.slice(0, 1) };
    }
  }
}

const clock = (ts) =>
  new Date(Number(ts.split('.')[0]) * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

function messageNode(message, { inThread }) {
  const author = authorOf(message);
  const content =
    message.blocks.length > 0
      ? h('div', { className: 'content blocks' }, [renderBlocks(message.blocks, messageContext(message))])
      : h('div', { className: 'content mrkdwn' }, [renderMrkdwn(message.text, baseContext('t'))]);
  const replies =
    !inThread && message.replyCount > 0
      ? h('button', {
          type: 'button',
          className: 'replies',
          textContent: `${message.replyCount} ${message.replyCount === 1 ? 'reply' : 'replies'}`,
          onclick: () => openThread(message),
        })
      : null;
  const dismiss = message.ephemeral
    ? h('button', {
        type: 'button',
        className: 'link-button',
        textContent: 'Dismiss message',
        onclick: () => {
          state.dismissed.add(message.ts);
          render();
        },
      })
    : null;
  return h(
    'article',
    { className: `message${message.ephemeral ? ' ephemeral' : ''}`, 'data-ts': message.ts },
    [
      h('div', {
        className: `avatar avatar-${message.author.kind}`,
        textContent: author.avatar,
        'aria-hidden': 'true',
      }),
      h('div', { className: 'body' }, [
        h('header', {}, [
          h('span', { className: 'author', textContent: author.name }),
          author.badge ? h('span', { className: 'badge', textContent: author.badge }) : null,
          h('time', { className: 'clock', textContent: clock(message.ts) }),
          message.edited ? h('span', { className: 'edited', textContent: '(edited)' }) : null,
        ]),
        message.ephemeral
          ? h('div', { className: 'ephemeral-note' }, ['👁 Only visible to you · ', dismiss])
          : null,
        content,
        ...(message.unfurls ?? []).map((unfurl, index) => unfurlNode(message, unfurl, index)),
        replies,
      ]),
    ],
  );
}

/** Redraws a list of messages, reusing the nodes of messages that did not change. */
function renderMessages(container, messages, cache, options) {
  const stickToBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 60;
  // replaceChildren empties the list for a moment, which resets the scroll position to the top; a
  // person reading (or clicking on) an earlier message must stay where they were.
  const scrolledTo = container.scrollTop;
  const seen = new Set();
  const nodes = messages.map((message) => {
    const id = `${message.ephemeral ? 'e' : 'm'} ${key(message)}`;
    // "Today" and "Tomorrow" are read against the sandbox clock: a move redraws the message's dates.
    const version = `${state.clockOffsetMs ?? 0} ${JSON.stringify(message)}`;
    seen.add(id);
    const cached = cache.get(id);
    if (cached && cached.version === version) return cached.node;
    const node = messageNode(message, options);
    cache.set(id, { version, node });
    return node;
  });
  for (const id of cache.keys()) if (!seen.has(id)) cache.delete(id);
  container.replaceChildren(...nodes);
  container.scrollTop = stickToBottom ? container.scrollHeight : scrolledTo;
}

// ---------------------------------------------------------------- the page's parts

function renderStatus() {
  $('#status').hidden = state.connected;
}

function renderSidebar() {
  $('#workspace-name').textContent = state.team.name;
  const switcher = $('#user-switcher');
  switcher.replaceChildren(
    ...state.people.map((person) =>
      h('option', { value: person.id, textContent: `${person.realName} (@${person.handle})` }),
    ),
  );
  switcher.value = state.me;
  $('#user-note').textContent = state.people.find((person) => person.id === state.me)?.note ?? '';
  const isCurrent = (view) => JSON.stringify(view) === JSON.stringify(state.view);
  const link = (label, view, extra) =>
    h('li', {}, [
      h('button', {
        type: 'button',
        className: `nav-item${isCurrent(view) ? ' current' : ''}`,
        textContent: label,
        title: extra,
        onclick: () => go(view),
      }),
    ]);
  $('#channel-list').replaceChildren(
    ...state.channels
      .filter((channel) => channel.kind !== 'im')
      .map((channel) =>
        link(
          `${channel.kind === 'private' ? '🔒' : '#'} ${channel.name}`,
          { kind: 'channel', id: channel.id },
          channel.topic,
        ),
      ),
  );
  $('#app-list').replaceChildren(
    link(`🤖 ${state.app.name}`, { kind: 'app', tab: 'home' }),
    slackbot.navItem(() => {
      // One pane at the side, as in Slack: Slackbot takes the thread's place.
      state.thread = null;
      render();
    }),
  );
}

const clockFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

/** The sandbox's time and how far ahead it runs, in the reader's zone. */
function renderClock() {
  $('#clock').hidden = state.clockOffsetMs === null;
  if (state.clockOffsetMs === null) return;
  const hours = Math.round(state.clockOffsetMs / 360_000) / 10;
  const ahead =
    hours === 0 ? 'real time' : hours < 48 ? `+${hours} h` : `+${Math.round(hours / 2.4) / 10} days`;
  $('#clock-now').textContent = `${clockFormat.format(new Date(sandboxNow()))} (${ahead})`;
}

function renderHeader() {
  const header = $('#pane-header');
  if (state.view.kind === 'channel') {
    const channel = channelMap().get(state.view.id);
    header.replaceChildren(
      h('h1', { textContent: `${channel?.kind === 'private' ? '🔒' : '#'} ${channel?.name ?? ''}` }),
      h('p', { className: 'topic', textContent: channel?.topic ?? '' }),
    );
    return;
  }
  const tab = (name, label) =>
    h('button', {
      type: 'button',
      role: 'tab',
      className: `tab${state.view.tab === name ? ' current' : ''}`,
      'aria-selected': String(state.view.tab === name),
      textContent: label,
      onclick: () => go({ kind: 'app', tab: name }),
    });
  header.replaceChildren(
    h('h1', { textContent: `🤖 ${state.app.name}` }),
    h('div', { className: 'tabs', role: 'tablist' }, [tab('home', 'Home'), tab('messages', 'Messages')]),
  );
}

const timelineCache = new Map();
const threadCache = new Map();

function currentChannelId() {
  if (state.view.kind === 'channel') return state.view.id;
  return state.view.tab === 'messages' ? imChannel() : null;
}

function renderPane() {
  const timeline = $('#timeline');
  const home = $('#home');
  const channelId = currentChannelId();
  timeline.hidden = channelId === null;
  home.hidden = channelId !== null;
  if (channelId === null) {
    renderHome(home);
  } else {
    const messages = [...state.messages.values(), ...state.ephemerals.values()]
      .filter((message) => message.channel === channelId && !state.dismissed.has(message.ts))
      .filter((message) => message.threadTs === null || message.threadTs === message.ts)
      .sort((a, b) => compareTs(a.ts, b.ts));
    renderMessages(timeline, messages, timelineCache, { inThread: false });
  }
  const composer = $('#composer');
  const input = $('#composer-input');
  const readOnly = state.view.kind === 'app';
  composer.hidden = channelId === null;
  input.disabled = readOnly;
  composer.querySelector('.send').disabled = readOnly;
  input.placeholder = readOnly
    ? 'This app’s Messages tab is read-only: type /ps in a channel.'
    : `Message ${state.view.kind === 'channel' ? `#${channelMap().get(channelId)?.name ?? ''}` : ''} — try /ps help`;
}

function renderHome(container) {
  if (state.home === null) {
    container.replaceChildren(
      h('p', {
        className: 'placeholder',
        textContent: `${state.app.name} has not published a Home tab yet…`,
      }),
    );
    return;
  }
  const homeView = state.home;
  const context = {
    ...baseContext('home'),
    act: (element, blockId, selected) =>
      send('/sandbox/action', {
        container: { kind: 'view', viewId: homeView.id },
        blockId,
        actionId: element.action_id,
        selected,
      }),
  };
  container.replaceChildren(
    h('div', { className: 'blocks home-view' }, [renderBlocks(homeView.view.blocks ?? [], context)]),
  );
}

function renderThread() {
  const pane = $('#thread-pane');
  if (state.thread === null) {
    pane.hidden = true;
    return;
  }
  const parent = state.messages.get(`${state.thread.channel} ${state.thread.ts}`);
  if (parent === undefined) {
    state.thread = null;
    pane.hidden = true;
    return;
  }
  pane.hidden = false;
  const replies = [...state.messages.values(), ...state.ephemerals.values()]
    .filter(
      (message) =>
        message.channel === parent.channel && message.threadTs === parent.ts && message.ts !== parent.ts,
    )
    .filter((message) => !state.dismissed.has(message.ts))
    .sort((a, b) => compareTs(a.ts, b.ts));
  renderMessages($('#thread-messages'), [parent, ...replies], threadCache, { inThread: true });
}

function render() {
  renderStatus();
  renderSidebar();
  renderClock();
  renderHeader();
  renderPane();
  renderThread();
  renderModal();
}

function go(view) {
  state.view = view;
  state.thread = null;
  if (view.kind === 'app' && view.tab === 'home') void send('/sandbox/home', {});
  render();
}

function openThread(message) {
  // One pane at the side, as in Slack: the thread takes Slackbot's place.
  slackbot.close();
  state.thread = { channel: message.channel, ts: message.ts };
  render();
  $('#thread-input').focus();
}

// ---------------------------------------------------------------- modals

const modal = createModalDialog({
  dialog: $('#modal'),
  context: (prefix) => baseContext(prefix),
  send,
});

function renderModal() {
  modal.render(state.modals.at(-1));
}

// ---------------------------------------------------------------- Slackbot's side

const slackbot = createSlackbotPanel({
  pane: $('#slackbot-pane'),
  send,
  context: (prefix) => baseContext(prefix),
  notice: (text) => toast(text),
  openMessages: () => go({ kind: 'app', tab: 'messages' }),
});

// ---------------------------------------------------------------- toasts and composers

function toast(text) {
  const node = h('div', { className: 'toast', role: 'status', textContent: text });
  $('#toasts').append(node);
  setTimeout(() => node.remove(), 6000);
}

function wireComposer(form, input, threadTs) {
  const submit = async () => {
    const text = input.value;
    const channel = threadTs() ? state.thread.channel : currentChannelId();
    if (text.trim() === '' || channel === null) return;
    input.value = '';
    const outcome = await send('/sandbox/command', {
      channel,
      text,
      ...(threadTs() ? { threadTs: threadTs() } : {}),
    });
    if (!outcome.ok && input.value === '') input.value = text;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  });
}

function start() {
  wireComposer($('#composer'), $('#composer-input'), () => undefined);
  wireComposer($('#thread-composer'), $('#thread-input'), () => state.thread?.ts);
  for (const button of document.querySelectorAll('#clock button[data-step]')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      await send('/sandbox/clock', { step: button.dataset.step });
      button.disabled = false;
    });
  }
  // The minutes go on passing between moves.
  setInterval(renderClock, 15_000);
  $('#thread-close').addEventListener('click', () => {
    state.thread = null;
    render();
  });
  $('#slackbot-close').addEventListener('click', () => {
    slackbot.close();
    render();
  });
  $('#user-switcher').addEventListener('change', (event) => {
    state.me = event.target.value;
    state.thread = null;
    modal.forget();
    slackbot.forget();
    state.dismissed.clear();
    timelineCache.clear();
    threadCache.clear();
    const url = new URL(location.href);
    url.searchParams.set('as', state.me);
    history.replaceState(null, '', url);
    if (state.view.kind === 'app' && state.view.tab === 'home') void send('/sandbox/home', {});
    connect();
  });
  connect();
}

start();
