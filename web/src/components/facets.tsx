/**
 * The facets of the log window as filters (docs/dashboard.md "Pages"): one fieldset per
 * facet, one checkbox per value with its count; checking one adds the value to the page's URL
 * query (the REST filter of the same name), so the view is shareable and the back button works.
 */
import { navigate } from "../router.js";

/** A facet: the query parameter it filters and its values with their counts. */
export interface Facet {
  param: string;
  legend: string;
  values: { value: string; count: bigint | number }[];
  /** Only one value at a time (base_ref is a single filter). */
  single?: boolean;
  /** How a value reads (event types in words); the value itself is the label's title. */
  label?: (value: string) => string;
}

function toggle(url: URL, facet: Facet, value: string) {
  const q = new URLSearchParams(url.search);
  const chosen = q.getAll(facet.param);
  q.delete(facet.param);
  q.delete("cursor");
  const next = chosen.includes(value) ? chosen.filter((v) => v !== value) : facet.single ? [value] : [...chosen, value];
  for (const v of next) q.append(facet.param, v);
  navigate(`${url.pathname}?${q.toString()}`);
}

/** The facets, each value a checkbox labelled with its value and count. */
export function Facets({ url, facets }: { url: URL; facets: Facet[] }) {
  const q = url.searchParams;
  return (
    <div class="facets">
      {facets.map((f) => (
        <fieldset key={f.param} data-facet={f.param}>
          <legend>{f.legend}</legend>
          {f.values.length === 0 && <p class="muted">none</p>}
          <ul>
            {f.values.slice(0, 30).map((v) => (
              <li key={v.value} data-value={v.value}>
                <label title={v.value}>
                  <input
                    type="checkbox"
                    checked={q.getAll(f.param).includes(v.value)}
                    onChange={() => toggle(url, f, v.value)}
                  />
                  <span class="facet-value">{f.label ? f.label(v.value) : v.value}</span>
                  <span class="count">{String(v.count)}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}
