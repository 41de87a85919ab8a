// The action object of a block_actions payload, per element type, built from the stored element.
import { describe, expect, it } from 'vitest';
import { blockAction, findElement } from '../../../tools/sandbox/block-action.js';

const option = (value: string) => ({ text: { type: 'plain_text', text: value.toUpperCase() }, value });
const context = { now: () => 1_700_000_000_500, isKnownUser: (id: string) => id === 'U0MAYA' };

describe('block actions', () => {
  it('find an element as an accessory or among a block’s elements', () => {
    const blocks = [
      { type: 'section', block_id: 's', accessory: { type: 'overflow', action_id: 'more' } },
      { type: 'actions', block_id: 'a', elements: [{ type: 'button', action_id: 'go' }] },
    ];
    expect(findElement(blocks, 's', 'more')).toMatchObject({ type: 'overflow' });
    expect(findElement(blocks, 'a', 'go')).toMatchObject({ type: 'button' });
    expect(findElement(blocks, 'a', 'more')).toBeUndefined();
  });

  it('send ticked checkboxes as their option objects, in the order ticked', () => {
    const element = {
      type: 'checkboxes',
      action_id: 'pick',
      options: [option('a'), option('b'), option('c')],
    };
    expect(blockAction(element, { blockId: 'x', selected: ['c', 'a'] }, context)).toEqual({
      type: 'checkboxes',
      action_id: 'pick',
      block_id: 'x',
      action_ts: '1700000000.500000',
      selected_options: [option('c'), option('a')],
    });
    expect(blockAction(element, { blockId: 'x', selected: ['a', 'z'] }, context)).toBe(
      'those options are not all offered',
    );
  });

  it('send a chosen person as selected_user, and refuse someone outside the workspace', () => {
    const element = { type: 'users_select', action_id: 'who' };
    expect(blockAction(element, { blockId: 'x', selected: 'U0MAYA' }, context)).toMatchObject({
      selected_user: 'U0MAYA',
    });
    expect(blockAction(element, { blockId: 'x', selected: 'U0EVE' }, context)).toBe(
      'choose a person of this workspace',
    );
  });

  it('find option groups’ options for a select, and refuse elements that send no actions', () => {
    const select = {
      type: 'static_select',
      action_id: 'type',
      option_groups: [{ label: { type: 'plain_text', text: 'GPU' }, options: [option('p4000')] }],
    };
    expect(blockAction(select, { blockId: 'x', selected: 'p4000' }, context)).toMatchObject({
      selected_option: option('p4000'),
    });
    expect(blockAction({ type: 'plain_text_input', action_id: 't' }, { blockId: 'x' }, context)).toBe(
      'elements of type plain_text_input send no actions',
    );
  });
});
