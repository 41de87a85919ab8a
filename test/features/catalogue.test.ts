// The catalogue of operations: each feature's definitions drive `/ps`, and what the text reader makes
// of a command is what the operation's schema (the parameters another front door takes as JSON) accepts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commands } from '../../src/features/catalogue.js';

describe('the catalogue of operations', () => {
  it('reads every example in the help into parameters its own schema accepts', () => {
    for (const operation of commands.commands) {
      expect(operation.help.examples.length, operation.name).toBeGreaterThan(0);
      for (const example of operation.help.examples) {
        // As Slack sends what a person types: a picked #channel or @person arrives as markup.
        const sent = example
          .replace(/^\/ps /, '')
          .replace(/#(\w[\w-]*)/g, '<#C0123ABCD|$1>')
          .replace(/@(\w+)/g, '<@U0123ABCD|$1>');
        const parsed = commands.parse(sent);
        if (!parsed.ok) throw new Error(`${example}: ${parsed.error}`);
        expect(parsed.definition.name, example).toBe(operation.name);
        const checked = operation.params.safeParse(parsed.params);
        if (!checked.success) throw new Error(`${example}: ${z.prettifyError(checked.error)}`);
      }
    }
  });

  it('describes every parameter, for a front door that shows them to a model or a person', () => {
    for (const operation of commands.commands) {
      const schema = z.toJSONSchema(operation.params, { io: 'input' }) as {
        properties?: Record<string, { description?: string }>;
      };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${operation.name}: ${name}`).toBeTruthy();
      }
    }
  });

  it('says of each operation whether it only reads', () => {
    const kinds = Object.fromEntries(commands.commands.map((operation) => [operation.name, operation.kind]));
    expect(kinds).toMatchObject({ list: 'read', show: 'read', usage: 'read', spend: 'read' });
    expect(kinds).toMatchObject({ start: 'change', stop: 'change', destroy: 'change', share: 'change' });
  });
});
