// A small form for one MCP tool's arguments, made from the JSON Schema tools/list gives (zod's
// toJSONSchema output): a select for an enum, a checkbox for a boolean, a number input for a number,
// a text input for a string, and JSON for anything else (objects, records, unions). A field left empty
// is left out of the arguments, so the tool's own default applies, as when a model leaves it out. The
// form is not validated by the browser (novalidate): each problem is one sentence naming its field.
import { h } from './blockkit.js';

function kindOf(schema) {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) return 'enum';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'string') return 'string';
  return 'json';
}

/** What the person reads under the field: the schema's description and its default, if any. */
function hint(schema) {
  const parts = [];
  if (typeof schema.description === 'string') parts.push(schema.description);
  if (schema.default !== undefined) parts.push(`Default: ${JSON.stringify(schema.default)}.`);
  return parts.join(' ');
}

/** An example of the JSON a field takes, for its placeholder and for the sentence when it is not JSON. */
function jsonExample(schema) {
  if (schema.default !== undefined && schema.default !== null) return JSON.stringify(schema.default);
  const options = Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
  if (options.some((option) => option.type === 'array')) return '["value"]';
  return '{"key": "value"}';
}

function control(kind, schema, id) {
  switch (kind) {
    case 'enum':
      return h('select', { id, className: 'bk-select' }, [
        h('option', { value: '', textContent: '—' }),
        ...schema.enum.map((value) => h('option', { value, textContent: value })),
      ]);
    case 'boolean':
      return h('input', { id, type: 'checkbox', checked: schema.default === true });
    case 'number':
      return h('input', {
        id,
        type: 'number',
        className: 'bk-text-input',
        step: schema.type === 'integer' ? '1' : 'any',
        placeholder: schema.default === undefined ? '' : String(schema.default),
      });
    case 'string':
      return h('input', { id, type: 'text', className: 'bk-text-input', autocomplete: 'off' });
    default:
      return h('textarea', {
        id,
        className: 'bk-text-input',
        rows: 2,
        placeholder: jsonExample(schema),
        spellcheck: false,
      });
  }
}

/** The value a field gives: `{ skip }` when left empty, `{ problem }` when it cannot be read. */
function readField(kind, name, schema, node) {
  if (kind === 'boolean') {
    // Only a choice that differs from the default is sent: an untouched box says nothing.
    return node.checked === (schema.default === true) ? { skip: true } : { value: node.checked };
  }
  const text = node.value.trim();
  if (text === '') return { skip: true };
  if (kind === 'number') {
    const value = Number(text);
    if (!Number.isFinite(value)) return { problem: `${name} must be a number.` };
    if (schema.type === 'integer' && !Number.isInteger(value))
      return { problem: `${name} must be a whole number.` };
    return { value };
  }
  if (kind === 'json') {
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return {
        problem: `${name} is not JSON (${error.message}). Write it as JSON, for example ${jsonExample(schema)}.`,
      };
    }
  }
  return { value: text };
}

/**
 * The form for `tool` (its inputSchema), with ids under `idPrefix`. `node` is the fields;
 * `read()` gives `{ arguments }`, or `{ problems }` as sentences naming the field.
 */
export function toolForm(tool, idPrefix) {
  const properties = tool.inputSchema?.properties ?? {};
  const required = new Set(tool.inputSchema?.required ?? []);
  const fields = Object.entries(properties).map(([name, schema]) => {
    const kind = kindOf(schema);
    const id = `${idPrefix}-${name}`;
    const input = control(kind, schema, id);
    const label = h('label', { htmlFor: id, className: 'tool-field-name' }, [
      name,
      required.has(name) ? h('span', { className: 'tool-field-required', textContent: ' required' }) : null,
    ]);
    const node = h('div', { className: `tool-field tool-field-${kind}`, 'data-name': name }, [
      kind === 'boolean' ? h('div', { className: 'tool-field-check' }, [input, label]) : label,
      kind === 'boolean' ? null : input,
      h('p', { className: 'tool-field-hint', textContent: hint(schema) }),
    ]);
    return { name, kind, schema, input, node };
  });
  return {
    node: h(
      'div',
      { className: 'tool-fields' },
      fields.length === 0
        ? [h('p', { className: 'tool-field-hint', textContent: 'This tool takes no arguments.' })]
        : fields.map((field) => field.node),
    ),
    read() {
      const args = {};
      const problems = [];
      for (const field of fields) {
        const read = readField(field.kind, field.name, field.schema, field.input);
        if (read.problem) problems.push(read.problem);
        else if (!read.skip) args[field.name] = read.value;
      }
      return problems.length > 0 ? { problems } : { arguments: args };
    },
  };
}
