package io.mykit.delay.core;

/** This gateway node's name and the base URL other nodes and operators reach it by. */
public record NodeIdentity(String id, String url) {
}
