import { describe, expect, it } from 'vitest';
import { refilledForm, type SubmittedView } from '../../../src/slack/block-kit/form-refill.js';

const option = (value: string) => ({ text: { type: 'plain_text' as const, text: value }, value });

function submitted(): SubmittedView {
  return {
    callback_id: 'form',
    title: { type: 'plain_text', text: 'Form' },
    submit: { type: 'plain_text', text: 'Save' },
    private_metadata: '{"channelId":"C1"}',
    blocks: [
      { type: 'input', block_id: 'name', element: { type: 'plain_text_input', action_id: 'name_input' } },
      {
        type: 'input',
        block_id: 'size',
        element: { type: 'number_input', action_id: 'size_input', initial_value: '50', min_value: '1' },
      },
      {
        type: 'input',
        block_id: 'region',
        element: { type: 'static_select', action_id: 'region_input', options: [option('A'), option('B')] },
      },
      {
        type: 'input',
        block_id: 'flags',
        element: { type: 'checkboxes', action_id: 'flags_input', initial_options: [option('x')] },
      },
      {
        type: 'input',
        block_id: 'password',
        element: { type: 'plain_text_input', action_id: 'password_input' },
      },
    ],
    state: {
      values: {
        name: { name_input: { type: 'plain_text_input', value: 'typed name' } },
        size: { size_input: { type: 'number_input', value: '77' } },
        region: { region_input: { type: 'static_select', selected_option: option('B') } },
        flags: { flags_input: { type: 'checkboxes', selected_options: [] } },
        password: { password_input: { type: 'plain_text_input', value: 'hunter2' } },
      },
    },
  };
}

type Block = { block_id?: string; element?: Record<string, unknown>; elements?: Array<{ text: string }> };

describe('refilledForm', () => {
  it('keeps what was typed, chosen and unticked, the form it came from, and never a secret', () => {
    const form = refilledForm({ view: submitted(), problems: {}, secretBlockIds: ['password'] });
    const blocks = form.blocks as Block[];
    const element = (id: string) => blocks.find((block) => block.block_id === id)?.element;
    expect(form).toMatchObject({ callback_id: 'form', private_metadata: '{"channelId":"C1"}' });
    expect(element('name')?.initial_value).toBe('typed name');
    expect(element('size')).toMatchObject({ initial_value: '77', min_value: '1' });
    expect(element('region')?.initial_option).toEqual(option('B'));
    expect(element('flags')).not.toHaveProperty('initial_options');
    expect(element('password')).not.toHaveProperty('initial_value');
    expect(JSON.stringify(form)).not.toContain('hunter2');
  });

  it("puts back the element's own option, found by value, and none that it no longer offers", () => {
    const view = submitted();
    const described = { ...option('B'), description: { type: 'plain_text' as const, text: 'Amsterdam' } };
    (view.blocks[2] as { element: Record<string, unknown> }).element.options = [option('A'), described];
    // Slack echoes the chosen option in its own words (here without the description it was offered with).
    view.state.values.region = {
      region_input: { type: 'static_select', selected_option: { ...option('B'), emoji: true } },
    };
    view.state.values.flags = {
      flags_input: { type: 'checkboxes', selected_options: [option('x'), option('gone')] },
    };
    (view.blocks[3] as { element: Record<string, unknown> }).element.options = [option('x'), option('y')];
    const blocks = refilledForm({ view, problems: {} }).blocks as Block[];
    const element = (id: string) => blocks.find((block) => block.block_id === id)?.element;
    expect(element('region')?.initial_option).toEqual(described);
    expect(element('flags')?.initial_options).toEqual([option('x')]);
  });

  it('says each problem under its field, escaped, and one without a field above the form', () => {
    const form = refilledForm({
      view: submitted(),
      problems: { size: '77 GB is not offered <!channel>', nowhere: 'Paperspace said no' },
    });
    const blocks = form.blocks as Block[];
    const sizeAt = blocks.findIndex((block) => block.block_id === 'size');
    expect(blocks[sizeAt + 1]?.elements?.[0]?.text).toBe('⚠️ 77 GB is not offered &lt;!channel&gt;');
    expect(blocks[0]?.elements?.[0]?.text).toContain('Paperspace said no');
  });

  it('replaces the problems of an earlier refusal instead of stacking them', () => {
    const once = refilledForm({ view: submitted(), problems: { size: 'first' }, notice: 'top' });
    const again = refilledForm({
      view: { ...submitted(), blocks: once.blocks },
      problems: { name: 'second' },
    });
    const text = JSON.stringify(again.blocks);
    expect(text).not.toContain('first');
    expect(text).not.toContain('top');
    expect(text).toContain('second');
  });
});
