/** The search box above the chat list (issue 14): typing or pressing Enter in it opens the global search dialog with the text. */
import { openSearch } from './GlobalSearch.tsx';

export function SearchBox() {
  return (
    <div className="search-box">
      <input
        type="search"
        className="input"
        placeholder="Search (Ctrl+F)"
        aria-label="Search chats and messages"
        data-testid="chat-list-search"
        value=""
        onChange={(e) => openSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') openSearch('');
        }}
      />
    </div>
  );
}
