// The Agent Trace record JSON Schema as published with spec 0.1.0
// (github.com/cursor/agent-trace, schemas/trace-record.json), used to check
// roz's ledger against the public spec and not only against roz's own zod.
// One deliberate change: the published `version` pattern is `^[0-9]+\.[0-9]+$`
// while the same spec's examples use "0.1.0"; we accept both forms.
const contributor = {
  type: 'object',
  properties: { type: { type: 'string', enum: ['human', 'ai', 'mixed', 'unknown'] }, model_id: { type: 'string', maxLength: 250 } },
  required: ['type'],
  additionalProperties: false,
};

export const specTraceRecordJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+(\\.[0-9]+)?$' },
    id: { type: 'string', format: 'uuid' },
    timestamp: { type: 'string', format: 'date-time' },
    vcs: {
      type: 'object',
      properties: { type: { type: 'string', enum: ['git', 'jj', 'hg', 'svn'] }, revision: { type: 'string' } },
      required: ['type', 'revision'],
      additionalProperties: false,
    },
    tool: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } }, required: ['name', 'version'], additionalProperties: false },
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          conversations: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                url: { type: 'string', format: 'uri' },
                contributor,
                ranges: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      start_line: { type: 'integer', minimum: 1 },
                      end_line: { type: 'integer', minimum: 1 },
                      content_hash: { type: 'string' },
                      contributor,
                    },
                    required: ['start_line', 'end_line'],
                    additionalProperties: false,
                  },
                },
                related: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { type: { type: 'string' }, url: { type: 'string', format: 'uri' } },
                    required: ['type', 'url'],
                    additionalProperties: false,
                  },
                },
              },
              required: ['ranges'],
              additionalProperties: false,
            },
          },
        },
        required: ['path', 'conversations'],
        additionalProperties: false,
      },
    },
    metadata: { type: 'object' },
  },
  required: ['version', 'id', 'timestamp', 'files'],
  additionalProperties: false,
} as const;
