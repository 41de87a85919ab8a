// Modal inputs at realistic and at awkward sizes, and helpers to look into built views.
import type { InputBlock, ModalView, PlainTextOption } from '@slack/types';
import type { Network, Script, Template, User } from '../../../src/paperspace/schemas.js';

export function templatesFixture(count: number): Template[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `tmpl${i}`,
    name: `paperspace/tmpl${i}`,
    label:
      i % 3 === 0 ? null : `Ubuntu 22.04 with ML-in-a-Box, CUDA 12 and a very long descriptive label ${i}`,
    os: 'Ubuntu 22.04 LTS (Jammy Jellyfish) with a suspiciously long operating system string',
    dtCreated: '2023-06-01T00:00:00.000Z',
  }));
}

export function networksFixture(count: number): Network[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `net${i}`,
    name: `render-net-${i}`,
    region: 'Europe (AMS1)',
    dtCreated: '2023-01-01T00:00:00.000Z',
    network: `10.${i}.0.0`,
    netmask: '255.255.240.0',
    teamId: 'te9xk1',
  }));
}

export function scriptsFixture(count: number): Script[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `scr${i}`,
    ownerType: 'team',
    ownerId: 'te9xk1',
    name: `bootstrap-${i}`,
    description: i === 0 ? null : 'Installs the drivers',
    dtCreated: '2023-01-01T00:00:00.000Z',
    isEnabled: true,
    runOnce: false,
  }));
}

export function usersFixture(count: number): User[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `usr${i}`,
    email: `person${i}@example.com`,
    firstname: `Person`,
    lastname: `${i}`,
    dtCreated: '2023-01-01T00:00:00.000Z',
    teamId: 'te9xk1',
  }));
}

export function inputBlocks(view: ModalView): InputBlock[] {
  return view.blocks.filter((block): block is InputBlock => block.type === 'input');
}

export function inputByBlockId(view: ModalView, blockId: string): InputBlock | undefined {
  return inputBlocks(view).find((block) => block.block_id === blockId);
}

/** A selected option exactly as Slack sends it back in view.state.values. */
export function selected(value: string, text = value) {
  return { text: { type: 'plain_text' as const, text, emoji: true }, value };
}

/** The options of the static select in a block (empty when the block or its options are missing). */
export function selectOptions(view: ModalView, blockId: string): PlainTextOption[] {
  const element = inputByBlockId(view, blockId)?.element;
  return element?.type === 'static_select' ? (element.options ?? []) : [];
}
