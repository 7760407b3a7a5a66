/**
 * The engine's side of metrics: one small interface the push path, the due path and the journal writers report to.
 * Micrometer itself lives in the wiring module ({@code io.mykit.delay.core.observability}), so the engine stays free of
 * any metrics library.
 */
package io.mykit.delay.queue.metrics;
