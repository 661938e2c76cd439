// A drawing in its box with zoom controls: the whole machine scaled to the box's width first, then zoom and pan (contract 17).
import { html, raw, type Html } from '../../transport/html.js';

/** The zoom controls every drawing box gets (the page script wires them): the whole machine fits the box's width first. */
export function diagramBox(attrs: Html, svg: string, label: string): Html {
  return html`<div class="diagram-tools" data-diagram-tools role="group" aria-label="${label}: zoom">
<button type="button" data-zoom="out" aria-label="Zoom out">−</button><button type="button" data-zoom="fit">Fit</button><button type="button" data-zoom="in" aria-label="Zoom in">+</button>
<span class="hint">Drag or scroll to move around.</span></div>
<div class="diagram" data-diagram ${attrs}>${raw(svg)}</div>`;
}
