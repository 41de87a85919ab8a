// Each rule of the fake Slack (fake-slack-rules.ts), shown refusing what Slack refuses with Slack's
// error and HTTP shape, and taking what Slack takes; and a relaxed rule letting the refused call through.
import { webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBoltLogger } from '../../src/slack/bolt-logger.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { createFakeFunctions } from './fake-slack-functions.js';
import { captureLogs } from './log-capture.js';

let slack: FakeSlack;
let client: webApi.WebClient;

beforeEach(async () => {
  slack ??= await startFakeSlack();
  slack.reset();
  client = new webApi.WebClient('xoxb-rules-test', {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: createBoltLogger(captureLogs().logger),
  });
});
afterEach(() => vi.useRealTimers());
afterAll(() => slack.close());

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const section = (text: string, blockId?: string) => ({
  type: 'section' as const,
  text: { type: 'mrkdwn' as const, text },
  ...(blockId === undefined ? {} : { block_id: blockId }),
});
const button = (text: string, value = 'v', actionId = 'a') => ({
  type: 'actions' as const,
  elements: [{ type: 'button' as const, text: plain(text), value, action_id: actionId }],
});
const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: plain(title),
  blocks: [section('hello')],
  ...extra,
});
const post = (blocks: unknown[], channel = 'C1') =>
  client.chat.postMessage({ channel, text: 'fallback', blocks: blocks as webApi.KnownBlock[] });
const refusedWith = (error: string) => ({ data: expect.objectContaining({ ok: false, error }) });

describe('Block Kit limits (blockKit)', () => {
  it.each([
    ['a section of 3,001 characters', [section('x'.repeat(3001))], [section('x'.repeat(3000))]],
    [
      'a header of 151 characters',
      [{ type: 'header', text: plain('h'.repeat(151)) }],
      [{ type: 'header', text: plain('h'.repeat(150)) }],
    ],
    ['a button label of 76 characters', [button('b'.repeat(76))], [button('b'.repeat(75))]],
    ['a button value of 2,001 characters', [button('b', 'v'.repeat(2001))], [button('b', 'v'.repeat(2000))]],
    [
      'an action_id of 256 characters',
      [button('b', 'v', 'a'.repeat(256))],
      [button('b', 'v', 'a'.repeat(255))],
    ],
    ['a block_id of 256 characters', [section('s', 'b'.repeat(256))], [section('s', 'b'.repeat(255))]],
    [
      'the same block_id twice',
      [section('s', 'same'), section('t', 'same')],
      [section('s', 'one'), section('t', 'two')],
    ],
    [
      '51 blocks',
      Array.from({ length: 51 }, () => section('s')),
      Array.from({ length: 50 }, () => section('s')),
    ],
  ])('refuses %s with invalid_blocks and says where', async (_what, refused, accepted) => {
    await expect(post(refused)).rejects.toMatchObject({
      data: {
        ok: false,
        error: 'invalid_blocks',
        response_metadata: { messages: [expect.stringMatching(/json-pointer:\/blocks/)] },
      },
    });
    await expect(post(accepted)).resolves.toMatchObject({ ok: true });
  });

  it('refuses a text argument over 40,000 characters with msg_too_long', async () => {
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x'.repeat(40_001) })).rejects.toMatchObject(
      refusedWith('msg_too_long'),
    );
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x'.repeat(40_000) })).resolves.toMatchObject(
      {
        ok: true,
      },
    );
  });

  it('refuses the same limits in chat.update and chat.postEphemeral', async () => {
    const posted = await post([section('s')]);
    const tooLong = [section('x'.repeat(3001))] as webApi.KnownBlock[];
    await expect(
      client.chat.update({ channel: 'C1', ts: posted.ts ?? '', text: 't', blocks: tooLong }),
    ).rejects.toMatchObject(refusedWith('invalid_blocks'));
    await expect(
      client.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 't', blocks: tooLong }),
    ).rejects.toMatchObject(refusedWith('invalid_blocks'));
  });

  it.each([
    ['a title of 25 characters', modal('t'.repeat(25)), modal('t'.repeat(24))],
    [
      'a submit label of 25 characters',
      modal('t', { submit: plain('s'.repeat(25)) }),
      modal('t', { submit: plain('s'.repeat(24)) }),
    ],
    [
      'a close label of 25 characters',
      modal('t', { close: plain('c'.repeat(25)) }),
      modal('t', { close: plain('c'.repeat(24)) }),
    ],
    [
      'private_metadata of 3,001 characters',
      modal('t', { private_metadata: 'm'.repeat(3001) }),
      modal('t', { private_metadata: 'm'.repeat(3000) }),
    ],
    [
      '101 blocks',
      modal('t', { blocks: Array.from({ length: 101 }, () => section('s')) }),
      modal('t', { blocks: Array.from({ length: 100 }, () => section('s')) }),
    ],
  ])('refuses a modal with %s with invalid_arguments', async (_what, refused, accepted) => {
    await expect(
      client.views.open({ trigger_id: slack.issueTrigger(), view: refused as webApi.ModalView }),
    ).rejects.toMatchObject(refusedWith('invalid_arguments'));
    await expect(
      client.views.open({ trigger_id: slack.issueTrigger(), view: accepted as webApi.ModalView }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('refuses a Home view of 101 blocks in views.publish', async () => {
    const blocks = Array.from({ length: 101 }, () => section('s')) as webApi.KnownBlock[];
    await expect(
      client.views.publish({ user_id: 'U1', view: { type: 'home', blocks } }),
    ).rejects.toMatchObject(refusedWith('invalid_arguments'));
  });
});

describe('the chart block (blockKit)', () => {
  // Slack's data visualization block: https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block
  const bars = (categories: string[], options: { title?: string; series?: number } = {}) => ({
    type: 'data_visualization',
    title: options.title ?? 'Team spend',
    chart: {
      type: 'bar',
      series: Array.from({ length: options.series ?? 1 }, (_, index) => ({
        name: `Series ${index + 1}`,
        data: categories.map((label, at) => ({ label, value: at + 0.5 })),
      })),
      axis_config: { categories, y_label: 'US dollars' },
    },
  });
  const labels = (count: number) => Array.from({ length: count }, (_, index) => `Person ${index + 1}`);
  const withData = (chart: ReturnType<typeof bars>, data: unknown[]) => ({
    ...chart,
    chart: { ...chart.chart, series: [{ name: 'Spend', data }] },
  });

  it.each([
    [
      'a title of 51 characters',
      [bars(['Ada'], { title: 't'.repeat(51) })],
      [bars(['Ada'], { title: 't'.repeat(50) })],
    ],
    ['21 categories', [bars(labels(21))], [bars(labels(20))]],
    ['7 series', [bars(['Ada'], { series: 7 })], [bars(['Ada'], { series: 6 })]],
    ['a category of 21 characters', [bars(['c'.repeat(21)])], [bars(['c'.repeat(20)])]],
    ['no category', [bars([])], [bars(['Ada'])]],
    [
      'a series missing a category’s point',
      [withData(bars(['Ada', 'Sam']), [{ label: 'Ada', value: 1 }])],
      [
        withData(bars(['Ada', 'Sam']), [
          { label: 'Sam', value: 2 },
          { label: 'Ada', value: 1 },
        ]),
      ],
    ],
    [
      'a value that is not a number',
      [withData(bars(['Ada']), [{ label: 'Ada', value: '1' }])],
      [withData(bars(['Ada']), [{ label: 'Ada', value: -1 }])],
    ],
    ['three charts in one message', [bars(['A']), bars(['B']), bars(['C'])], [bars(['A']), bars(['B'])]],
  ])('refuses %s with invalid_blocks and says where', async (_what, refused, accepted) => {
    await expect(post(refused)).rejects.toMatchObject({
      data: {
        ok: false,
        error: 'invalid_blocks',
        response_metadata: {
          messages: expect.arrayContaining([expect.stringMatching(/json-pointer:\/blocks\/\d/)]),
        },
      },
    });
    await expect(post(accepted)).resolves.toMatchObject({ ok: true });
  });

  it('refuses two series of one name, and a chart in a modal', async () => {
    const twice = bars(['Ada'], { series: 2 });
    const [first] = twice.chart.series;
    await expect(
      post([{ ...twice, chart: { ...twice.chart, series: [first, first] } }]),
    ).rejects.toMatchObject(refusedWith('invalid_blocks'));
    await expect(
      client.views.open({
        trigger_id: slack.issueTrigger(),
        view: modal('Spend', { blocks: [bars(['Ada'])] }) as webApi.ModalView,
      }),
    ).rejects.toMatchObject(refusedWith('invalid_arguments'));
  });
});

describe('summed block text (blockText)', () => {
  // 5 sections of 2,500 characters: each within the 3,000 limit, 12,500 in all.
  const sections = (each: number) => Array.from({ length: 5 }, () => section('x'.repeat(each)));

  it('refuses a message whose blocks hold 11,341 characters, the least Slack was seen to refuse', async () => {
    const parts = (total: number) => [...sections(2000), section('x'.repeat(total - 10_000))];
    await expect(post(parts(11_341))).rejects.toMatchObject(refusedWith('msg_blocks_too_long'));
    await expect(post(parts(11_340))).resolves.toMatchObject({ ok: true });
    await expect(post(sections(2000))).resolves.toMatchObject({ ok: true });
  });

  it('refuses the same in a response_url post, with HTTP 400', async () => {
    const answer = await fetch(slack.responseUrl('big'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 't', blocks: sections(2500) }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ ok: false, error: 'msg_blocks_too_long' });
    expect(slack.responses('big')).toEqual([]);
  });

  it('takes the message once the rule is relaxed by name, with a reason', async () => {
    slack.relax('blockText', 'shows what relaxing does');
    await expect(post(sections(2500))).resolves.toMatchObject({ ok: true });
    expect(() => slack.relax('blockKit', ' ')).toThrow(/needs a reason/);
  });
});

describe('trigger_ids (triggers)', () => {
  const open = (triggerId: string) => client.views.open({ trigger_id: triggerId, view: modal('Log in') });

  it('opens one view per trigger_id: a second use, or one Slack never issued, is invalid_trigger_id', async () => {
    const trigger = slack.issueTrigger();
    await expect(open(trigger)).resolves.toMatchObject({ ok: true });
    await expect(open(trigger)).rejects.toMatchObject(refusedWith('invalid_trigger_id'));
    await expect(open('123.456.abcdef')).rejects.toMatchObject(refusedWith('invalid_trigger_id'));
  });

  it('refuses a trigger_id used after 3 seconds with expired_trigger_id', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const stale = slack.issueTrigger();
    const fresh = slack.issueTrigger();
    vi.advanceTimersByTime(2900);
    await expect(open(fresh)).resolves.toMatchObject({ ok: true });
    vi.advanceTimersByTime(600);
    await expect(open(stale)).rejects.toMatchObject(refusedWith('expired_trigger_id'));
  });

  it('spends a trigger_id in views.push too', async () => {
    const trigger = slack.issueTrigger();
    await expect(client.views.push({ trigger_id: trigger, view: modal('Next') })).resolves.toMatchObject({
      ok: true,
    });
    await expect(client.views.push({ trigger_id: trigger, view: modal('Next') })).rejects.toMatchObject(
      refusedWith('invalid_trigger_id'),
    );
  });
});

describe('views.update (viewHash)', () => {
  it('takes the current hash, refuses a stale one with hash_conflict, and an unknown view with not_found', async () => {
    const opened = await client.views.open({ trigger_id: slack.issueTrigger(), view: modal('One') });
    const viewId = opened.view?.id ?? '';
    const first = await client.views.update({
      view_id: viewId,
      hash: opened.view?.hash ?? '',
      view: modal('Two'),
    });
    expect(first.view?.hash).not.toBe(opened.view?.hash);

    await expect(
      client.views.update({ view_id: viewId, hash: opened.view?.hash ?? '', view: modal('Three') }),
    ).rejects.toMatchObject(refusedWith('hash_conflict'));
    await expect(client.views.update({ view_id: 'V0NEVER', view: modal('x') })).rejects.toMatchObject(
      refusedWith('not_found'),
    );
    await expect(client.views.update({ view: modal('x') } as never)).rejects.toMatchObject(
      refusedWith('invalid_arguments'),
    );
  });

  it('finds a view by its external_id, and one Slack showed the app (showView)', async () => {
    await client.views.open({
      trigger_id: slack.issueTrigger(),
      view: modal('One', { external_id: 'ext-1' }),
    });
    await expect(client.views.update({ external_id: 'ext-1', view: modal('Two') })).resolves.toMatchObject({
      ok: true,
    });
    slack.showView({ id: 'V0CLICKED', hash: '1.abc' });
    await expect(
      client.views.update({ view_id: 'V0CLICKED', hash: '1.abc', view: modal('Three') }),
    ).resolves.toMatchObject({ ok: true, view: { id: 'V0CLICKED' } });
  });
});

describe('chat.update and chat.delete (knownMessages)', () => {
  it('changes a posted message; refuses one never posted and an ephemeral one with message_not_found', async () => {
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'card' });
    const ephemeral = await client.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'only you' });

    await expect(
      client.chat.update({ channel: 'C1', ts: posted.ts ?? '', text: 'new' }),
    ).resolves.toMatchObject({
      ok: true,
    });
    await expect(
      client.chat.update({ channel: 'C1', ts: '1700009999.000100', text: 'x' }),
    ).rejects.toMatchObject(refusedWith('message_not_found'));
    await expect(
      client.chat.update({ channel: 'C1', ts: ephemeral.message_ts ?? '', text: 'x' }),
    ).rejects.toMatchObject(refusedWith('message_not_found'));
    await expect(client.chat.delete({ channel: 'C2', ts: posted.ts ?? '' })).rejects.toMatchObject(
      refusedWith('message_not_found'),
    );
    slack.showMessage('C2', '1600000000.000001');
    await expect(client.chat.delete({ channel: 'C2', ts: '1600000000.000001' })).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe('response_urls (responseUrlUses)', () => {
  const respond = (id: string) =>
    fetch(slack.responseUrl(id), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'answer' }),
    });

  it('takes 5 posts, then answers the 6th with HTTP 404 used_url', async () => {
    for (let use = 1; use <= 5; use += 1) expect((await respond('five')).status).toBe(200);
    const sixth = await respond('five');
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: 'used_url' });
    expect(slack.responses('five')).toHaveLength(5);
  });

  it('answers a post after 30 minutes with expired_url', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    slack.responseUrl('late');
    vi.advanceTimersByTime(30 * 60_000 + 1);
    const late = await respond('late');
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({ ok: false, error: 'expired_url' });
  });
});

describe('ephemeral messages (ephemeralAudience)', () => {
  it("refuses someone outside the channel, or another person's DM, with user_not_in_channel", async () => {
    slack.setMembers('C0PRIVATE', ['U0ADA']);
    const to = (channel: string, user: string) => client.chat.postEphemeral({ channel, user, text: 'psst' });

    await expect(to('C0PRIVATE', 'U0ADA')).resolves.toMatchObject({ ok: true });
    await expect(to('C0PRIVATE', 'U0BOB')).rejects.toMatchObject(refusedWith('user_not_in_channel'));
    await expect(to('D0ADA', 'U0ADA')).resolves.toMatchObject({ ok: true });
    await expect(to('D0ADA', 'U0BOB')).rejects.toMatchObject(refusedWith('user_not_in_channel'));
  });
});

describe('posting pace (channelPace)', () => {
  it('takes a burst of 5 posts in a channel, then answers HTTP 429 with Retry-After; other channels go on', async () => {
    for (let n = 1; n <= 5; n += 1) await client.chat.postMessage({ channel: 'C1', text: `post ${n}` });

    const limited = client.chat.postMessage({ channel: 'C1', text: 'post 6' });
    await expect(limited).rejects.toMatchObject({ code: webApi.ErrorCode.RateLimitedError, retryAfter: 1 });
    await expect(client.chat.postMessage({ channel: 'C2', text: 'elsewhere' })).resolves.toMatchObject({
      ok: true,
    });
    expect(slack.calls('chat.postMessage').at(-2)?.answer).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('takes about one post a second after the burst', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let n = 1; n <= 5; n += 1) await client.chat.postMessage({ channel: 'C1', text: `post ${n}` });
    vi.advanceTimersByTime(1000);
    await expect(client.chat.postMessage({ channel: 'C1', text: 'a second later' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'too soon' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
    });
  });

  it('paces DMs per person, a user id and its DM channel alike', async () => {
    for (let n = 1; n <= 3; n += 1) await client.chat.postMessage({ channel: 'U0ADA', text: `dm ${n}` });
    for (let n = 1; n <= 2; n += 1) await client.chat.postMessage({ channel: 'D0ADA', text: `dm ${n}` });
    await expect(client.chat.postMessage({ channel: 'U0ADA', text: 'sixth' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
    });
  });
});

describe('card updates (updatePace)', () => {
  const postCard = async () => {
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'card' });
    return String(posted.ts);
  };

  it('takes a minute of Tier 3 (50 updates) at once, then answers HTTP 429 with Retry-After, in every channel', async () => {
    const ts = await postCard();
    for (let n = 1; n <= 50; n += 1) await client.chat.update({ channel: 'C1', ts, text: `state ${n}` });

    await expect(client.chat.update({ channel: 'C1', ts, text: 'one too many' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: expect.any(Number),
    });
    // The budget is the workspace's, not a channel's or a message's.
    slack.showMessage('C2', '1700000000.000100');
    await expect(
      client.chat.update({ channel: 'C2', ts: '1700000000.000100', text: 'elsewhere' }),
    ).rejects.toMatchObject({ code: webApi.ErrorCode.RateLimitedError });
  });

  it('takes about 50 a minute after the burst, and counts each workspace (token) apart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ts = await postCard();
    for (let n = 1; n <= 50; n += 1) await client.chat.update({ channel: 'C1', ts, text: `state ${n}` });
    vi.advanceTimersByTime(1200);
    await expect(client.chat.update({ channel: 'C1', ts, text: '1.2 s later' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(client.chat.update({ channel: 'C1', ts, text: 'too soon' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
    });
    const otherWorkspace = new webApi.WebClient('xoxb-other-workspace', {
      slackApiUrl: slack.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    await expect(otherWorkspace.chat.update({ channel: 'C1', ts, text: 'theirs' })).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe("a step's outputs (functions.completeSuccess against manifest.yml's output_parameters)", () => {
  const STOPPED = { machine_id: 'ps1', machine_name: 'gpu-1', state: 'off' };
  const complete = (outputs: Record<string, unknown>) => {
    const event = slack.functions.execute({
      callbackId: 'stop_machine',
      inputs: { machine: 'gpu-1' },
      by: 'U0ADA',
    });
    const run = client.functions.completeSuccess({
      function_execution_id: event.function_execution_id,
      outputs,
    });
    return { run, executionId: event.function_execution_id };
  };

  it('takes outputs that are the declared ones, of their declared types', async () => {
    const { run, executionId } = complete(STOPPED);
    await expect(run).resolves.toMatchObject({ ok: true });
    expect(slack.functions.execution(executionId)).toEqual({ state: 'completed', outputs: STOPPED });
  });

  it.each([
    ['a number where the manifest says string', { ...STOPPED, machine_id: 42 }, '/outputs/machine_id'],
    ['an output the manifest does not declare', { ...STOPPED, public_ip: '' }, '/outputs/public_ip'],
    ['a required output left out', { machine_id: 'ps1', state: 'off' }, '/outputs/machine_name'],
  ])(
    'refuses %s with parameter_validation_failed and says which, leaving the run open',
    async (_what, outputs, pointer) => {
      const { run, executionId } = complete(outputs);
      await expect(run).rejects.toMatchObject({
        data: expect.objectContaining({
          error: 'parameter_validation_failed',
          errors: [expect.objectContaining({ pointer })],
        }),
      });
      expect(slack.functions.execution(executionId)).toEqual({ state: 'running' });
    },
  );

  it('checks each Slack type by its documented form, and lets an optional output be left out', () => {
    const functions = createFakeFunctions('A0TYPES', {
      typed_step: {
        title: 'Typed',
        input_parameters: {},
        output_parameters: {
          count: { type: 'integer', is_required: true },
          who: { type: 'slack#/types/user_id', is_required: true },
          where: { type: 'slack#/types/channel_id' },
          at: { type: 'slack#/types/timestamp' },
        },
      },
    });
    const completeSuccess = functions.handlers['functions.completeSuccess'];
    const answer = (outputs: Record<string, unknown>) => {
      const event = functions.execute({ callbackId: 'typed_step', inputs: {} });
      return completeSuccess?.({ args: { function_execution_id: event.function_execution_id, outputs } });
    };
    expect(answer({ count: 3, who: 'U0ADA', where: 'C0OPS', at: 1_700_000_000 })).toEqual({ ok: true });
    expect(answer({ count: 3, who: 'W0ADA' })).toEqual({ ok: true });
    for (const bad of [
      { count: '3', who: 'U0ADA' },
      { count: 2.5, who: 'U0ADA' },
      { count: 3, who: 'ada' },
      { count: 3, who: 'U0ADA', where: '#ops' },
      { count: 3, who: 'U0ADA', at: '1700000000.000100' },
    ]) {
      expect(answer(bad), JSON.stringify(bad)).toMatchObject({
        ok: false,
        error: 'parameter_validation_failed',
      });
    }
  });

  it('sets a user_context input from who ran the workflow, as { id, secret }, and takes no typed one', () => {
    const event = slack.functions.execute({
      callbackId: 'stop_machine',
      inputs: { machine: 'gpu-1' },
      by: 'U0ADA',
    });
    expect(event.inputs).toEqual({ machine: 'gpu-1', user: { id: 'U0ADA', secret: expect.any(String) } });
    expect(event.function.input_parameters).toContainEqual(
      expect.objectContaining({ name: 'user', type: 'slack#/types/user_context' }),
    );
    // The same person's context again, but never another person's secret.
    const again = slack.functions.execute({
      callbackId: 'stop_machine',
      inputs: { machine: 'gpu-1' },
      by: 'U0ADA',
    });
    const sam = slack.functions.execute({
      callbackId: 'stop_machine',
      inputs: { machine: 'gpu-1' },
      by: 'U0SAM',
    });
    const secret = (inputs: Record<string, unknown>) => (inputs.user as { secret: string }).secret;
    expect(secret(again.inputs)).toBe(secret(event.inputs));
    expect(secret(sam.inputs)).not.toBe(secret(event.inputs));
    // Workflow Builder has no field for it: a builder cannot type anyone's, not even a well-formed one.
    for (const user of ['U0ADA', { id: 'U0ADA', secret: secret(event.inputs) }]) {
      expect(() =>
        slack.functions.execute({
          callbackId: 'stop_machine',
          inputs: { machine: 'gpu-1', user },
          by: 'U0SAM',
        }),
      ).toThrow(/user_context/);
    }
    // Nobody started it or clicked in it (a schedule with no button): such a workflow is not published.
    expect(() =>
      slack.functions.execute({ callbackId: 'stop_machine', inputs: { machine: 'gpu-1' } }),
    ).toThrow(/not publish/);
  });

  it('will not start with a manifest type it has no rule for, rather than take any value for it', () => {
    const steps = {
      odd_step: {
        title: 'Odd',
        input_parameters: {},
        output_parameters: { x: { type: 'slack#/types/odd' } },
      },
    };
    expect(() => createFakeFunctions('A0ODD', steps)).toThrow(/slack#\/types\/odd/);
  });
});

describe('unfurl blocks (chat.unfurl, held to the rules of a message)', () => {
  const URL = 'https://console.paperspace.com/team/machines/ps1';
  const unfurl = (blocks: unknown[]) => {
    const shared = slack.unfurls.share({ channel: 'C1', user: 'U0ADA', urls: [URL] });
    return client.chat.unfurl({
      channel: 'C1',
      ts: String(shared.message_ts),
      unfurls: { [URL]: { blocks: blocks as webApi.KnownBlock[] } },
    });
  };

  it('takes a card within the limits', async () => {
    await expect(unfurl([section('gpu-1 is off'), button('Start')])).resolves.toMatchObject({ ok: true });
  });

  it.each([
    ['51 blocks', Array.from({ length: 51 }, () => section('s'))],
    ['a section of 3,001 characters', [section('x'.repeat(3001))]],
    ['a button label of 76 characters', [button('b'.repeat(76))]],
  ])('refuses %s with invalid_blocks and says where', async (_what, blocks) => {
    await expect(unfurl(blocks)).rejects.toMatchObject({
      data: expect.objectContaining({
        error: 'invalid_blocks',
        response_metadata: { messages: [expect.stringMatching(/json-pointer:\/blocks/)] },
      }),
    });
  });

  it('refuses blocks whose summed text a message could not carry, unless a test relaxes that rule', async () => {
    const long = Array.from({ length: 5 }, () => section('x'.repeat(2500)));
    await expect(unfurl(long)).rejects.toMatchObject(refusedWith('msg_blocks_too_long'));
    slack.relax('blockText', 'shows that an unfurl follows the message rule and its relaxing');
    await expect(unfurl(long)).resolves.toMatchObject({ ok: true });
  });
});
