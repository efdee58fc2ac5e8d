// The JSON schema electron-store checks the preferences file against, derived from the table of setting
// definitions the core's settings rules read, so a value the core accepts is always one the store accepts.
import type { Schema } from 'electron-store';
import type { Settings } from '../../src-shared/settings/settings-types';
import { SETTING_DEFINITIONS, type SettingDefinition } from '../../src-shared/settings/setting-definitions';

type JsonSchema = Schema<Settings>[keyof Settings];

const WINDOW_BOUNDS = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      properties: {
        x: { type: 'number' },
        y: { type: 'number' },
        width: { type: 'number', exclusiveMinimum: 0 },
        height: { type: 'number', exclusiveMinimum: 0 },
        maximized: { type: 'boolean' },
      },
      required: ['x', 'y', 'width', 'height'],
    },
  ],
} satisfies JsonSchema;

function jsonSchemaOf(definition: SettingDefinition<unknown>): JsonSchema {
  switch (definition.kind) {
    case 'link':
      return { type: 'string', pattern: '^https?://' };
    case 'name':
    case 'path':
      return { type: 'string', minLength: 1 };
    case 'text':
      return { type: 'string' };
    case 'whole':
      return { type: 'integer', minimum: definition.range.min, maximum: definition.range.max };
    case 'choice':
      return { enum: [...definition.choices] };
    case 'switch':
      return { type: 'boolean' };
    case 'bounds':
      return WINDOW_BOUNDS;
  }
}

export const SETTINGS_SCHEMA = Object.fromEntries(
  Object.entries(SETTING_DEFINITIONS).map(([key, definition]) => [key, jsonSchemaOf(definition as SettingDefinition<unknown>)]),
) as Schema<Settings>;
