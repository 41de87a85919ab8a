import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../../src/slack/block-kit/field-errors.js';
import { issueProblems } from '../../../src/slack/block-kit/form-problems.js';
import type { ViewStateValues } from '../../../src/slack/block-kit/view-state.js';

const text = (value: string) => ({ type: 'plain_text_input', value });
// The blocks of a submission, in the order of the form.
const values: ViewStateValues = {
  name_block: { name: text('gpu-1') },
  tags_block: { tags: text('a,,b') },
};
const blockIds = { name: 'name_block', tags: 'tags_block', size: 'size_block' };

describe('fieldErrors', () => {
  it('puts each problem under the block of its parameter', () => {
    expect(fieldErrors({ name: 'The name must not be empty.', tags: undefined }, blockIds, values)).toEqual({
      name_block: 'The name must not be empty.',
    });
  });

  it('puts a problem whose field is not in the submission under the fallback block', () => {
    expect(fieldErrors({ size: 'size is too big.' }, blockIds, values, 'tags_block')).toEqual({
      tags_block: 'size is too big.',
    });
  });

  it('puts it under the first block when the submission lacks the fallback block too', () => {
    // An error keyed by a block the view does not have makes Slack refuse the whole answer.
    expect(fieldErrors({ size: 'size is too big.' }, blockIds, values, 'gone_block')).toEqual({
      name_block: 'size is too big.',
    });
  });
});

describe('issueProblems', () => {
  it("keys an issue inside a parameter by that parameter, so it shows under the parameter's field", () => {
    // The machines' forms keyed `tags[1]` as its own parameter, which has no block: it went under the first field.
    const problems = issueProblems([{ field: 'tags[1]', message: 'must not be empty' }]);
    expect(problems).toEqual({ tags: 'tags[1] must not be empty.' });
    expect(fieldErrors(problems, blockIds, values)).toEqual({ tags_block: 'tags[1] must not be empty.' });
  });

  it('names a parameter with its subject, and joins two problems of one parameter', () => {
    const problems = issueProblems(
      [
        { field: 'name', message: 'must not be empty' },
        { field: 'name', message: 'must be at most 64 characters' },
      ],
      { name: 'The name' },
    );
    expect(problems).toEqual({ name: 'The name must not be empty. The name must be at most 64 characters.' });
  });
});
