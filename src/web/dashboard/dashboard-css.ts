// The dashboard's stylesheet, served from our own origin (/assets/dashboard.css; the CSP allows no inline style).
export const dashboardCss = `
[hidden] { display: none !important; }
input, select, textarea { max-width: 100%; box-sizing: border-box; }
/* Long ids, URLs and JSON break rather than push the page sideways (a phone is 390 px wide). */
main { overflow-wrap: anywhere; }
.step-policy { margin-top: .75rem; }
.step-policy-row { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: baseline; }
.step-policy-row label { margin-top: 0; min-width: 14rem; }
header nav { flex-wrap: wrap; gap: .5rem; }
header nav ul { flex-wrap: wrap; }
main.wide { max-width: 90rem; }
a:focus-visible, button:focus-visible, [tabindex]:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.filters label { margin-top: 0; }
.table-wrap { overflow-x: auto; }
.status { display: inline-block; padding: 0 .45rem; border-radius: 999px; border: 1px solid #889; font-size: .9em; white-space: nowrap; }
.status-waiting, .status-pending, .status-running { background: #fff6dc; border-color: #c90; }
.status-completed, .status-approved, .status-succeeded, .status-paid { background: #e8f6ea; border-color: #3a3; }
.status-failed, .status-rejected, .status-rolled_back, .status-declined, .status-escalated, .status-reversed { background: #fde8e8; border-color: #d33; }
.status-cancelled { background: #eee; border-color: #888; }
.order-head { display: flex; flex-wrap: wrap; gap: 1rem; align-items: baseline; }
.grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
@media (max-width: 60rem) { .grid { grid-template-columns: minmax(0, 1fr); } }
.diagram { overflow: auto; border: 1px solid #ddd; border-radius: 6px; background: #fff; touch-action: pan-x pan-y; }
/* The whole machine at the box's width; the order's drawing (beside its waits) and a zoomed one pan inside a box. */
.diagram[data-order-diagram], .diagram.zoomed { max-height: 75vh; }
.diagram svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
.diagram.zoomed svg { max-width: none; }
.diagram.panning { cursor: grabbing; user-select: none; }
.diagram-tools { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; margin: .25rem 0; }
.diagram-tools button { margin-top: 0; min-width: 2.4rem; }
.heat-legend ul { list-style: none; padding: 0; margin: .25rem 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.heat-legend li { display: flex; align-items: center; gap: .35rem; }
.heat-swatch { display: inline-block; width: 1.1rem; height: 1.1rem; border: 1px solid #44505c; border-radius: 3px; }
.heat-0 { background: #eff3ff; } .heat-1 { background: #bdd7e7; } .heat-2 { background: #6baed6; } .heat-3 { background: #3182bd; } .heat-4 { background: #08519c; }
.heat-none { background: #f4f4f4; border-style: dashed; }
.flow-heat g.heat-none .shape { stroke-dasharray: 4 3; }
ul.tabs { gap: 1rem; }
ul.tabs a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 3px solid #1a5fb4; }
.waits li.timer { border-color: #8aa4c8; background: #f1f6fd; }
.lasted, .until { font-variant-numeric: tabular-nums; }

.flow-diagram .node:focus { outline: none; }
.flow-diagram .node:focus .shape { stroke: #1a73e8; stroke-width: 3; }
.flow-diagram [data-node-status="running"] .shape { fill: #dbe9ff; stroke: #1a5fb4; }
.flow-diagram [data-node-status="waiting"] .shape { fill: #fff0c2; stroke: #b07800; stroke-width: 3; }
.flow-diagram [data-node-status="succeeded"] .shape { fill: #dff3e2; stroke: #2a7d36; }
.flow-diagram [data-node-status="failed"] .shape { fill: #fbdcdc; stroke: #b3261e; stroke-width: 2.5; }
.flow-diagram [data-node-status="skipped"] .shape { fill: #f1f1f1; stroke: #999; }
.flow-diagram [data-node-status="rolled_back"] .shape { fill: #f3e5f5; stroke: #7b1fa2; }
.flow-diagram [data-edge-status="active"] path { stroke: #2a7d36; stroke-width: 2.5; }
.flow-diagram [data-edge-status="inactive"] path { stroke: #c5c5c5; stroke-dasharray: 4 3; }
.flow-diagram [data-problem="true"] .shape { stroke: #b3261e; stroke-width: 3; stroke-dasharray: 5 3; }
.flow-diagram .node-current .shape { stroke: #1a73e8; stroke-width: 4; }
.waits { list-style: none; padding: 0; margin: 0; }
.waits li { border: 1px solid #e0c36a; background: #fffbea; border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.actions button { margin-top: 0; }
ul.actions { list-style: none; padding: 0; }
fieldset { min-width: 0; }
form[data-new-order-form] select, form[data-new-order-form] input { max-width: 100%; box-sizing: border-box; }
form[data-new-order-form] td input { width: 100%; min-width: 3rem; }
button.primary { background: #1a5fb4; color: #fff; border: 1px solid #1a5fb4; border-radius: 4px; }
button.danger { background: #fff; color: #b3261e; border: 1px solid #b3261e; border-radius: 4px; }
button[disabled] { opacity: .55; cursor: not-allowed; }
.countdown { font-variant-numeric: tabular-nums; }
.countdown.closing { color: #b3261e; font-weight: 600; }
.timeline { list-style: none; padding: 0; margin: 0; max-height: 28rem; overflow: auto; }
.timeline li { border-left: 3px solid #ccd; padding: .2rem .6rem; margin: .3rem 0; }
.timeline time { color: #555; font-size: .85em; display: block; }
.live-state { font-size: .85em; color: #555; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.problems li { color: #8a1c15; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.bulk form { align-items: flex-end; }
.bulk fieldset { border: 1px solid #ccd; border-radius: 6px; display: flex; flex-direction: column; gap: .2rem; }
.bulk [data-bulk-input] { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.bulk [data-bulk-input] label { margin-top: 0; }
.bulk [data-bulk-summary] { flex-basis: 100%; }
form.move { border: 1px solid #ccd; border-radius: 6px; padding: .5rem .75rem; margin: .75rem 0; }
form.move h3 { margin-top: .25rem; }
form.move fieldset { border: 1px solid #dde; border-radius: 6px; margin: .5rem 0; }
.move-row { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: baseline; margin: .35rem 0; }
.move-row label { margin-top: 0; flex: 1 1 20rem; font-weight: normal; }
.move-row select { flex: 0 1 22rem; }
[data-move-result].error { color: #8a1c15; }
ul.move-refusals { max-height: 18rem; overflow: auto; }
progress { width: min(100%, 14rem); }
textarea.json { width: 100%; min-height: 24rem; font-family: ui-monospace, monospace; font-size: .9em; }
textarea.json.short { min-height: 9rem; }
[data-impact-warning] { color: #8a1c15; font-weight: 600; }
[data-sim-fail-list] label { margin-top: 0; }
ol.paths { padding-left: 1.2rem; }
ol.paths li { margin: .25rem 0; }
.node-info { min-height: 3rem; }
@media (max-width: 60rem) {
  /* One column: the sections of both columns are ordered on their own, what the person must act on first. */
  .order-grid > .column { display: contents; }
  .order-grid .part-waits { order: -3; }
  .order-grid .part-cancel { order: -2; }
  .order-grid .part-diagram { order: -1; }
}
@media (max-width: 40rem) {
  main { padding: 0 .5rem; }
  section { padding: .6rem; }
  th, td { padding: .25rem .3rem; }
  .hide-narrow { display: none; }
  header nav { padding: .35rem .5rem; font-size: .92em; }
  header nav ul { gap: .2rem .8rem; }
  header .who { font-size: .85em; }
  /* Tables marked stack read as one card per row on a phone: each cell under its column's name, never sideways. */
  table.stack, table.stack tbody, table.stack tr, table.stack th, table.stack td { display: block; width: auto; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { border: 1px solid #ddd; border-radius: 6px; margin: .4rem 0; padding: .25rem .4rem; background: #fff; }
  table.stack th, table.stack td { border: 0; padding: .15rem 0; }
  table.stack [data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: #444; }
  table.stack caption { display: block; text-align: left; }
  pre, code { white-space: pre-wrap; overflow-wrap: anywhere; }
}
`;
