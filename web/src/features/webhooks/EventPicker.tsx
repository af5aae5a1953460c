/** Checkboxes of event types (webhook endpoints, Slack). */
export function EventPicker({ events, value, onChange, labels = {}, name }: { events: readonly string[]; value: string[]; onChange: (v: string[]) => void; labels?: Record<string, string>; name: string }) {
  return (
    <fieldset className="wh-events">
      <legend>Events</legend>
      {events.map((e) => (
        <label key={e} className="wh-event">
          <input
            type="checkbox"
            name={name}
            value={e}
            checked={value.includes(e)}
            onChange={(ev) => onChange(ev.target.checked ? [...value, e] : value.filter((x) => x !== e))}
            data-testid={`event-${e}`}
          />
          <span>{labels[e] ?? e}</span>
        </label>
      ))}
    </fieldset>
  );
}
