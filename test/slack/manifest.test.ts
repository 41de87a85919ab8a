import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { ListenerWiring } from '../../src/features/feature-deps.js';
import { registerListeners } from '../../src/features/index.js';
import { SLACK_EVENTS_PATH, SLACK_OAUTH_REDIRECT_PATH } from '../../src/slack/app.js';
import { ActionId, CallbackId, SLASH_COMMAND, StepCallbackId } from '../../src/slack/ids.js';
import { MCP_PATH } from '../../src/slack/mcp/mcp-endpoint.js';
import type { ListenerRouter } from '../../src/slack/router.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import {
  manifestSchemaSkipReason,
  requireManifestSchemaDirectory,
} from '../support/manifest-schema-location.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The parts of the manifest the code must agree with; the JSON schema checks the rest. */
const manifestShape = z.object({
  _metadata: z.object({ major_version: z.number().int() }),
  features: z.object({
    app_home: z.object({ home_tab_enabled: z.boolean(), messages_tab_enabled: z.boolean() }),
    slash_commands: z.array(z.object({ command: z.string(), url: z.string(), should_escape: z.boolean() })),
  }),
  oauth_config: z.object({
    redirect_urls: z.array(z.string()),
    scopes: z.object({ bot: z.array(z.string()) }),
  }),
  functions: z.record(
    z.string(),
    z.object({
      input_parameters: z.record(z.string(), z.object({ type: z.string() })),
      output_parameters: z.record(z.string(), z.object({ type: z.string() })),
    }),
  ),
  mcp_servers: z.record(z.string(), z.object({ url: z.string(), auth_type: z.string() })),
  settings: z.object({
    org_deploy_enabled: z.boolean(),
    function_runtime: z.string(),
    event_subscriptions: z.object({ request_url: z.string(), bot_events: z.array(z.string()) }),
    interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string() }),
    socket_mode_enabled: z.boolean(),
  }),
});

const rawManifest: unknown = parseYaml(readFileSync(join(repoRoot, 'manifest.yml'), 'utf8'));
const manifest = manifestShape.parse(rawManifest);

/** What registerListeners registers with the router, captured without an app. */
function registeredListeners() {
  const registered = {
    commands: [] as string[],
    actions: [] as string[],
    views: [] as string[],
    events: [] as string[],
    functions: [] as string[],
  };
  const recorder: ListenerRouter = {
    command: (name) => registered.commands.push(name),
    action: (actionId) => registered.actions.push(actionId),
    view: (callbackId) => registered.views.push(callbackId),
    event: (name) => registered.events.push(name),
    function: (callbackId) => registered.functions.push(callbackId),
  };
  // The dependencies are used by handlers, which never run here.
  registerListeners(recorder, { store: {} } as ListenerWiring);
  return registered;
}

function slackSchemaValidator() {
  const directory = requireManifestSchemaDirectory();
  const version = manifest._metadata.major_version;
  const schema: unknown = JSON.parse(
    readFileSync(join(directory, `manifest.schema.${version}.0.0.json`), 'utf8'),
  );
  // Slack's schema is not strict-mode clean (`_note` annotations, keywords without a type), so strict
  // mode is off; its own `regex` keyword (used for background_color) is implemented, not ignored.
  const ajv = new Ajv({ allErrors: true, strict: false });
  // ajv-formats is CommonJS: under NodeNext its callable export is `.default` of the module object.
  addFormats.default(ajv);
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    validate: (pattern: string, value: string) => new RegExp(pattern).test(value),
  });
  return ajv.compile(schema as object);
}

describe('manifest.yml', () => {
  it("is valid against Slack's published manifest schema", (context) => {
    if (manifestSchemaSkipReason !== undefined) context.skip(manifestSchemaSkipReason);
    const validate = slackSchemaValidator();
    const valid = validate(rawManifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check rejects a manifest Slack would reject', (context) => {
    if (manifestSchemaSkipReason !== undefined) context.skip(manifestSchemaSkipReason);
    const validate = slackSchemaValidator();
    const broken = structuredClone(rawManifest) as { display_information: { background_color: string } };
    broken.display_information.background_color = 'blue';
    expect(validate(broken)).toBe(false);
  });

  it('declares the slash command the code answers, with escaping on so mentions carry user ids', () => {
    expect(manifest.features.slash_commands.map((command) => command.command)).toEqual([SLASH_COMMAND]);
    expect(manifest.features.slash_commands[0]?.should_escape).toBe(true);
  });

  it('enables interactivity, because the bot renders buttons and modals', () => {
    expect(Object.values(ActionId).length).toBeGreaterThan(0);
    expect(Object.values(CallbackId).length).toBeGreaterThan(0);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
  });

  it('subscribes to app_home_opened and enables the Home and Messages tabs', () => {
    expect(manifest.settings.event_subscriptions.bot_events).toContain('app_home_opened');
    expect(manifest.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
  });

  it('requests exactly the bot scopes the code declares in BOT_SCOPES', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
  });

  it('sends installers back to the OAuth redirect the bot serves, on the same host as its events', () => {
    expect(manifest.oauth_config.redirect_urls).toEqual([`https://YOUR-HOST${SLACK_OAUTH_REDIRECT_PATH}`]);
    expect(manifest.settings.event_subscriptions.request_url).toBe(`https://YOUR-HOST${SLACK_EVENTS_PATH}`);
  });

  it('sends every request to the one Bolt endpoint, /slack/events, in HTTP mode', () => {
    const urls = [
      ...manifest.features.slash_commands.map((command) => command.url),
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
    ];
    for (const url of urls) expect(new URL(url).pathname).toBe('/slack/events');
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it("declares one MCP server for Slackbot at the bot's MCP path, on the events' host, with Slack identity auth", () => {
    const servers = Object.values(manifest.mcp_servers);
    expect(servers).toHaveLength(1);
    const [server] = servers;
    expect(new URL(server?.url ?? '').pathname).toBe(MCP_PATH);
    expect(new URL(server?.url ?? '').host).toBe(
      new URL(manifest.settings.event_subscriptions.request_url).host,
    );
    // Slack signs each request and names the person: the bot checks the one and acts for the other.
    expect(server?.auth_type).toBe('slack_identity_auth');
    expect(BOT_SCOPES).toContain('mcp:connect');
  });

  it('agrees with the listeners the code registers: command, action ids, view callback ids, events', () => {
    const registered = registeredListeners();
    expect(registered.commands).toEqual(manifest.features.slash_commands.map((command) => command.command));
    expect([...new Set(registered.actions)].sort()).toEqual(Object.values(ActionId).sort());
    expect([...new Set(registered.views)].sort()).toEqual(Object.values(CallbackId).sort());
    // function_executed is not subscribed to: Slack sends it to an app that declares functions.
    expect([...new Set(registered.events)].sort()).toEqual(
      [...manifest.settings.event_subscriptions.bot_events].sort(),
    );
    expect([...registered.functions].sort()).toEqual(Object.values(StepCallbackId).sort());
    expect(Object.keys(manifest.functions).sort()).toEqual(Object.values(StepCallbackId).sort());
  });

  it('declares the steps to run on the bot (remote), org-ready as Slack requires for custom steps', () => {
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.org_deploy_enabled).toBe(true);
  });

  it('gives every step a machine, the user context of the person it acts for, and the outputs it completes with', () => {
    const outputs: Record<string, string[]> = {
      [StepCallbackId.startMachine]: ['machine_id', 'machine_name', 'state'],
      [StepCallbackId.stopMachine]: ['machine_id', 'machine_name', 'state'],
      [StepCallbackId.restartMachine]: ['machine_id', 'machine_name', 'state'],
      [StepCallbackId.waitForState]: ['public_ip', 'state'],
      [StepCallbackId.requestMachine]: ['machine_id', 'machine_name', 'state'],
    };
    // What the request step reads, under the names request-step.ts reads them.
    const requestInputs = [
      'disk_size',
      'machine_name',
      'machine_type',
      'reason',
      'region',
      'template',
      'user',
    ];
    for (const [callbackId, step] of Object.entries(manifest.functions)) {
      // Slack sets it from whoever started the workflow or clicked in it: a builder cannot type it.
      expect(step.input_parameters.user?.type, callbackId).toBe('slack#/types/user_context');
      if (callbackId === StepCallbackId.requestMachine) {
        expect(Object.keys(step.input_parameters).sort()).toEqual(requestInputs);
      } else {
        expect(step.input_parameters.machine?.type, callbackId).toBe('string');
      }
      expect(Object.keys(step.output_parameters).sort(), callbackId).toEqual(outputs[callbackId]);
    }
  });
});
