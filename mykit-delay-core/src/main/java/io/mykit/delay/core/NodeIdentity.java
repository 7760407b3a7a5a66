package io.mykit.delay.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** This gateway node's name and the base URL other nodes and operators reach it by. */
public record NodeIdentity(String id, String url) {

    /** This machine's host name, or "unknown" when it cannot be told. */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
