package io.mykit.delay.client;

/** Where a {@link DelayConsumer} is, for a health check. */
public enum ConsumerState {
    /** Started, without an open stream: opening one, or waiting to open one again after a failure. */
    CONNECTING,
    /** The stream is open and jobs may come. */
    CONNECTED,
    /** Not started, or closed. */
    CLOSED
}
