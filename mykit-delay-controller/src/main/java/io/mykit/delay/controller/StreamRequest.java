package io.mykit.delay.controller;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A stream's handshake, checked and admitted: who asks, for which topics, with which credit and ttr; whether its caller
 * still holds its right to them ({@code allowed}, read again at each tenants reload); and the stream slots it took,
 * given back once when it ends.
 */
record StreamRequest(
        Caller caller, List<String> topics, int credit, long ttrMs, BooleanSupplier allowed, Runnable slots) {
    /** The handshake attribute the request is kept in until the connection opens. */
    static final String ATTRIBUTE = StreamRequest.class.getName();
}
