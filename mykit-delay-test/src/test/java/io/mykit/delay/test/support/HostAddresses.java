package io.mykit.delay.test.support;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Addresses of this machine, for tests that must call the gateway from somewhere other than loopback. */
public final class HostAddresses {

    private HostAddresses() {
    }

    /**
     * An IPv4 address of an up, non-loopback interface of this machine: connecting to it from here, the gateway sees
     * that address (not 127.0.0.1) as the caller's. Throws when the machine has none: a test needing it must fail,
     * not pass without having tried.
     */
    public static String nonLoopbackIpv4() {
        List<String> seen = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                seen.add(nic.getName() + (nic.isUp() ? "" : "(down)") + nic.inetAddresses().toList());
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()
                            && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list this machine's network interfaces", e);
        }
        throw new IllegalStateException("this machine has no up, non-loopback IPv4 address to call the gateway from; "
                + "interfaces: " + seen);
    }
}
