import { describe, expect, it } from 'vitest';
import { searchableKinds } from './search-api.rules.ts';

describe('searchableKinds', () => {
  it("gives search:read only the kinds the key's other scopes may read", () => {
    expect(searchableKinds(['search:read'])).toEqual([]);
    expect(searchableKinds(['search:read', 'tickets:read'])).toEqual(['tickets']);
    // write includes read; messages:read covers notes and media (they are messages)
    expect(searchableKinds(['search:read', 'messages:write'])).toEqual(['messages', 'notes', 'media']);
    expect(searchableKinds(['chats:read', 'contacts:read'])).toEqual(['chats', 'contacts']);
    expect(searchableKinds(['chats:write', 'messages:write', 'tickets:write', 'contacts:read'])).toEqual(['chats', 'messages', 'notes', 'tickets', 'contacts', 'media']);
  });
});
