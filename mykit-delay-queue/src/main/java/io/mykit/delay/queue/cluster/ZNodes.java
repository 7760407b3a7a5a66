package io.mykit.delay.queue.cluster;

/** Paths of the znodes under the namespace (the package notes say what each one holds). */
final class ZNodes {
    static final String LAYOUT = "/layout";
    static final String LAYOUT_LOCK = "/locks/layout";
    static final String MEMBERS = "/members";
    static final String LEADER = "/leader";
    static final String OWNERS = "/owners";

    private ZNodes() {}

    static String member(String nodeId) {
        return MEMBERS + "/" + nodeId;
    }

    static String owner(int bucket) {
        return OWNERS + "/b" + bucket;
    }
}
