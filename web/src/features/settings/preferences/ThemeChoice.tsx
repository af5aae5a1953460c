/**
 * The theme switch of /settings/preferences: System, Light or Dark as a row of radio buttons
 * (arrow keys move the choice). The same choice is in the user menu; both use app/shell/theme.ts.
 */
import { THEME_PREFS, useTheme } from '../../../app/shell/theme.ts';

export function ThemeChoice() {
  const [theme, setTheme] = useTheme();
  return (
    <div className="segmented" role="radiogroup" aria-label="Theme" data-testid="theme-choice">
      {THEME_PREFS.map((t) => (
        <label key={t.value} className={`segmented-option ${theme === t.value ? 'on' : ''}`}>
          <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => setTheme(t.value)} data-testid={`pref-theme-${t.value}`} />
          {t.label}
        </label>
      ))}
    </div>
  );
}
