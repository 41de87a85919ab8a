// Read built blocks the way a person looks at them: which buttons are there, what text shows.
import type { Button, KnownBlock, Overflow } from '@slack/types';

type Element = Button | Overflow | { type: string; action_id?: string };

/** Every interactive element of every actions block and section accessory, in order. */
export function actionElements(blocks: readonly unknown[]): Element[] {
  return (blocks as KnownBlock[]).flatMap((block) => {
    if (block.type === 'actions') return block.elements as Element[];
    if (block.type === 'section' && block.accessory) return [block.accessory as Element];
    return [];
  });
}

export function buttons(blocks: readonly unknown[]): Button[] {
  return actionElements(blocks).filter((element): element is Button => element.type === 'button');
}

export function buttonLabels(blocks: readonly unknown[]): string[] {
  return buttons(blocks).map((button) => button.text.text);
}

export function buttonByAction(blocks: readonly unknown[], actionId: string): Button | undefined {
  return buttons(blocks).find((button) => button.action_id === actionId);
}

/** All text a reader sees, in block order, one string per text object. */
function visibleTexts(blocks: readonly unknown[]): string[] {
  const texts: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
      texts.push(record.text);
      return;
    }
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'value') visit(value);
    }
  };
  visit(blocks);
  return texts;
}

export function visibleText(blocks: readonly unknown[]): string {
  return visibleTexts(blocks).join('\n');
}

/** The text of every mrkdwn object: the only text in which Slack turns `<...>` into mentions and links. */
export function mrkdwnTexts(blocks: readonly unknown[]): string[] {
  return (JSON.stringify(blocks).match(/"type":"mrkdwn","text":"(?:[^"\\]|\\.)*"/g) ?? []).map(
    (match) => JSON.parse(match.slice('"type":"mrkdwn","text":'.length)) as string,
  );
}
