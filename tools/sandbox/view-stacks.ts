// Open views, as Slack keeps them: per person a stack of up to three modals (views.open starts one,
// views.push and response_action 'push' add to it) and one Home tab view. Views keep their id across
// updates and get a new hash each time, so a stale views.update is refused as Slack refuses it.
import { randomBytes } from 'node:crypto';
import { withSlackIds } from './block-kit-rules.js';
import type { ChangeFeed, PageView } from './change-feed.js';
import { SANDBOX_APP, SANDBOX_TEAM } from './sandbox-identity.js';

type Json = Record<string, unknown>;

/** Slack's limit on stacked modals. */
const MAX_MODAL_STACK = 3;

export interface ViewRecord {
  id: string;
  userId: string;
  /** The view as the app sent it, with the ids Slack fills in. */
  view: Json;
  hash: string;
  rootViewId: string;
  previousViewId: string | null;
  errors: Record<string, string>;
  problem: string | null;
}

type ViewRef = { viewId: string } | { externalId: string };

export interface ViewStacks {
  /** Starts a new modal stack for the person (replacing any open one). */
  open(userId: string, view: Json): ViewRecord | 'duplicate_external_id';
  push(
    userId: string,
    view: Json,
  ): ViewRecord | 'no_open_modal' | 'push_limit_reached' | 'duplicate_external_id';
  update(ref: ViewRef, view: Json, hash?: string): ViewRecord | 'not_found' | 'hash_conflict';
  publishHome(userId: string, view: Json): ViewRecord;
  /** The view and where it is: on top of a modal stack, under another modal, or the Home tab. */
  find(viewId: string): ViewRecord | undefined;
  isModal(viewId: string): boolean;
  modals(userId: string): ViewRecord[];
  home(userId: string): ViewRecord | undefined;
  /** Closes the top modal (an empty view_submission ack, or Cancel); the one below shows again. */
  closeTop(userId: string): ViewRecord | undefined;
  /** Closes every modal of the person (response_action 'clear'). */
  clear(userId: string): void;
  setErrors(viewId: string, errors: Record<string, string>): void;
  setProblem(viewId: string, problem: string | null): void;
}

export function createViewStacks({ feed, now }: { feed: ChangeFeed; now: () => number }): ViewStacks {
  const stacks = new Map<string, ViewRecord[]>();
  const homes = new Map<string, ViewRecord>();
  let count = 0;

  const newId = (): string => {
    count += 1;
    return `V${String(count).padStart(4, '0')}${randomBytes(3).toString('hex').toUpperCase()}`;
  };
  const newHash = (): string => `${Math.floor(now() / 1000)}.${randomBytes(6).toString('base64url')}`;
  const stored = (view: Json): Json => ({
    ...view,
    blocks: withSlackIds(Array.isArray(view.blocks) ? view.blocks : []),
  });

  const allRecords = (): ViewRecord[] => [...[...stacks.values()].flat(), ...homes.values()];
  const find = (viewId: string) => allRecords().find((record) => record.id === viewId);
  const externalIdTaken = (view: Json): boolean =>
    typeof view.external_id === 'string' &&
    view.external_id !== '' &&
    allRecords().some((record) => record.view.external_id === view.external_id);

  const emitModals = (userId: string): void => {
    feed.emit({ type: 'modals', userId, stack: (stacks.get(userId) ?? []).map(toPageView) });
  };
  const emitFor = (record: ViewRecord): void => {
    if (homes.get(record.userId) === record)
      feed.emit({ type: 'home', userId: record.userId, view: toPageView(record) });
    else emitModals(record.userId);
  };

  const create = (userId: string, view: Json, below: ViewRecord | undefined): ViewRecord => {
    const id = newId();
    return {
      id,
      userId,
      view: stored(view),
      hash: newHash(),
      rootViewId: below?.rootViewId ?? id,
      previousViewId: below?.id ?? null,
      errors: {},
      problem: null,
    };
  };

  return {
    open(userId, view) {
      if (externalIdTaken(view)) return 'duplicate_external_id';
      const record = create(userId, view, undefined);
      stacks.set(userId, [record]);
      emitModals(userId);
      return record;
    },

    push(userId, view) {
      const stack = stacks.get(userId) ?? [];
      const top = stack.at(-1);
      if (top === undefined) return 'no_open_modal';
      if (stack.length >= MAX_MODAL_STACK) return 'push_limit_reached';
      if (externalIdTaken(view)) return 'duplicate_external_id';
      const record = create(userId, view, top);
      stack.push(record);
      emitModals(userId);
      return record;
    },

    update(ref, view, hash) {
      const record =
        'viewId' in ref
          ? find(ref.viewId)
          : allRecords().find((candidate) => candidate.view.external_id === ref.externalId);
      if (record === undefined) return 'not_found';
      if (hash !== undefined && hash !== record.hash) return 'hash_conflict';
      // An update that names no external_id keeps the one the view had, so later updates can still use it.
      const externalId = record.view.external_id;
      record.view = stored(
        view.external_id === undefined && externalId !== undefined
          ? { ...view, external_id: externalId }
          : view,
      );
      record.hash = newHash();
      record.errors = {};
      record.problem = null;
      emitFor(record);
      return record;
    },

    publishHome(userId, view) {
      const existing = homes.get(userId);
      const record: ViewRecord = existing
        ? { ...existing, view: stored(view), hash: newHash() }
        : create(userId, view, undefined);
      homes.set(userId, record);
      emitFor(record);
      return record;
    },

    find,
    isModal: (viewId) => [...stacks.values()].some((stack) => stack.some((record) => record.id === viewId)),
    modals: (userId) => [...(stacks.get(userId) ?? [])],
    home: (userId) => homes.get(userId),

    closeTop(userId) {
      const stack = stacks.get(userId) ?? [];
      const closed = stack.pop();
      if (closed) emitModals(userId);
      return closed;
    },

    clear(userId) {
      if ((stacks.get(userId) ?? []).length === 0) return;
      stacks.set(userId, []);
      emitModals(userId);
    },

    setErrors(viewId, errors) {
      const record = find(viewId);
      if (!record) return;
      record.errors = errors;
      record.problem = null;
      emitFor(record);
    },

    setProblem(viewId, problem) {
      const record = find(viewId);
      if (!record) return;
      record.problem = problem;
      emitFor(record);
    },
  };
}

/** The view as the page renders it. */
export function toPageView(record: ViewRecord): PageView {
  return {
    id: record.id,
    hash: record.hash,
    view: structuredClone(record.view),
    errors: { ...record.errors },
    problem: record.problem,
  };
}

/** The view as Slack's API answers and payloads carry it, with the state the person entered. */
export function toSlackView(record: ViewRecord, values: Record<string, Record<string, unknown>> = {}): Json {
  const type = record.view.type === 'home' ? 'home' : 'modal';
  return {
    id: record.id,
    team_id: SANDBOX_TEAM.id,
    type,
    private_metadata: '',
    callback_id: '',
    external_id: '',
    title: type === 'modal' ? { type: 'plain_text', text: '' } : undefined,
    close: null,
    submit: null,
    clear_on_close: false,
    notify_on_close: false,
    ...record.view,
    blocks: record.view.blocks,
    state: { values },
    hash: record.hash,
    previous_view_id: record.previousViewId,
    root_view_id: record.rootViewId,
    app_id: SANDBOX_APP.appId,
    app_installed_team_id: SANDBOX_TEAM.id,
    bot_id: SANDBOX_APP.botId,
  };
}
