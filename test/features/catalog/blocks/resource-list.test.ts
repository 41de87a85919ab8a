import { describe, expect, it } from 'vitest';
import { resourceList } from '../../../../src/features/catalog/blocks/resource-list.js';
import type { Network, Script, SharedDrive, Template, User } from '../../../../src/paperspace/schemas.js';
import { decodePageValue } from '../../../../src/slack/block-kit/paging.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { buttons, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

const templates: Template[] = Array.from({ length: 45 }, (_, i) => ({
  id: `t${i}`,
  name: `paperspace/t${i}`,
  label: i === 0 ? null : `Ubuntu 22.04 ML ${i}`,
  os: 'Ubuntu 22.04',
  dtCreated: '2023-06-01T00:00:00.000Z',
}));

const user: User = {
  id: 'u1a2b3',
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  dtCreated: '2023-01-01T00:00:00.000Z',
  teamId: 'te9xk1',
};

const network: Network = {
  id: 'n123',
  name: 'render-net',
  region: 'Europe (AMS1)',
  dtCreated: '2023-01-01T00:00:00.000Z',
  network: '10.64.0.0',
  netmask: '255.255.240.0',
  teamId: 'te9xk1',
};

const script: Script = {
  id: 'sc1',
  ownerType: 'user',
  ownerId: 'u1a2b3',
  name: 'install-drivers',
  description: 'd'.repeat(5000),
  dtCreated: '2023-01-01T00:00:00.000Z',
  isEnabled: true,
  runOnce: false,
};

const drive: SharedDrive = {
  id: 'sd1',
  name: 'datasets',
  mountPoint: '\\\\10.64.0.5\\datasets',
  size: 536870912000,
  username: '******',
  password: '******',
  region: { name: 'East Coast (NY2)' },
};

function list<K extends Parameters<typeof resourceList>[0]>(...args: Parameters<typeof resourceList<K>>) {
  const message = resourceList(...args);
  assertBlockKitLimits(message);
  return message;
}

describe('resourceList', () => {
  it('pages templates with the kind in the Next value and the label, OS and id shown', () => {
    const { blocks, text } = list('templates', templates, { page: 1, filters: { os: 'Ubuntu 22.04' } });
    expect(text).toBe('45 templates · page 1 of 3');
    const shown = visibleText(blocks);
    expect(shown).toContain('*paperspace/t0*\nUbuntu 22.04 · `paperspace/t0`\nid `t0`');
    expect(shown).toContain('*Ubuntu 22.04 ML 1*');
    const next = buttons(blocks).find((button) => button.action_id === ActionId.listPage);
    expect(decodePageValue(next?.value ?? '')).toEqual({
      kind: 'templates',
      filters: { os: 'Ubuntu 22.04' },
      page: 2,
    });
  });

  it('shows users, networks, scripts and drives with their key fields', () => {
    expect(visibleText(list('users', [user], { page: 1, filters: {} }).blocks)).toContain(
      '*Ada Lovelace*\nada@example.com\nid `u1a2b3`',
    );
    expect(visibleText(list('networks', [network], { page: 1, filters: {} }).blocks)).toContain(
      'Europe (AMS1) · `10.64.0.0` netmask `255.255.240.0`',
    );
    expect(visibleText(list('scripts', [script], { page: 1, filters: {} }).blocks)).toContain(
      '✅ enabled · runs on every boot',
    );
    const drives = visibleText(list('drives', [drive], { page: 1, filters: {} }).blocks);
    expect(drives).toContain('500 GiB · East Coast (NY2) · `\\\\10.64.0.5\\datasets`');
    expect(drives).not.toContain('******');
  });

  it('shortens a long description so the id stays visible', () => {
    const lines = visibleText(list('scripts', [script], { page: 1, filters: {} }).blocks).split('\n');
    expect(lines.find((line) => line.startsWith('ddd'))).toBe(`${'d'.repeat(299)}…`);
    expect(lines).toContain('id `sc1` · created <!date^1672531200^{date_short}|2023-01-01 00:00 UTC>');
  });

  it('truncates an item longer than a section allows with an ellipsis, without a half escape', () => {
    const huge = { ...network, name: '&'.repeat(4000) };
    const { blocks } = list('networks', [huge], { page: 1, filters: {} });
    const section = blocks.find((block) => block.type === 'section');
    const text = section?.type === 'section' ? (section.text?.text ?? '') : '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text).toMatch(/^\*(&amp;)+…$/);
  });

  it('keeps every page within 50 blocks whatever the page size', () => {
    for (const pageSize of [5, 46, 500]) {
      const { blocks } = list('templates', templates, { page: 2, pageSize, filters: {} });
      expect(blocks.length).toBeLessThanOrEqual(50);
    }
  });

  it('names the filters when nothing matches', () => {
    expect(list('networks', [], { page: 1, filters: { region: 'Europe (AMS1)' } }).text).toBe(
      'No networks match `region=Europe (AMS1)`.',
    );
    expect(list('drives', [], { page: 1, filters: {} }).text).toBe('No shared drives on this account.');
  });
});
