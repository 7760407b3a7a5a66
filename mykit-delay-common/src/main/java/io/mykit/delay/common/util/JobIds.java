package io.mykit.delay.common.util;

/**
 * Job ids as they are stored. A client names its jobs with plain ids (1 to {@value #MAX_LENGTH} of A-Z a-z 0-9 _ . :
 * -); the jobs of a tenant with a token live in its own namespace, stored as {@code <tenant>~<id>}. '~' is no character
 * of a plain id, so no client can spell a stored id of another namespace, and two namespaces never share an id.
 *
 * <pre>
 *   orders~order-42-close      tenant "orders", its id "order-42-close"
 *   order-42-close             no namespace: without tenants, the admin's, the tokenless default tenant's
 * </pre>
 */
public final class JobIds {
    /** The longest id the journal stores (its id column), namespace included. */
    public static final int MAX_LENGTH = 128;
    /** Between a tenant's name and its own id. */
    public static final char SEPARATOR = '~';
    /** The longest tenant name, as tenant configuration allows. */
    private static final int MAX_TENANT = 64;

    private JobIds() {}

    /** Whether {@code id} is a plain id of at most {@code maxLength} characters. */
    public static boolean plain(String id, int maxLength) {
        return id != null && PlainNames.plain(id, maxLength, true);
    }

    /** The namespace of tenant {@code tenant}: what its ids are stored behind. */
    public static String namespace(String tenant) {
        return tenant + SEPARATOR;
    }

    /**
     * Whether {@code id} may name a stored job: a plain id, or a tenant's namespace and a plain id. One longer than a
     * push stores is allowed here: it names no job, and is answered as any unknown id.
     */
    public static boolean stored(String id) {
        if (id == null) {
            return false;
        }
        int separator = id.indexOf(SEPARATOR);
        if (separator < 0) {
            return PlainNames.plain(id, MAX_LENGTH, true);
        }
        return PlainNames.plain(id, 0, separator, MAX_TENANT, false)
                && PlainNames.plain(id, separator + 1, id.length(), MAX_LENGTH, true);
    }

    /** Whether {@code cursor} may start a page by id: a stored id, or a namespace alone (its first id follows it). */
    public static boolean cursor(String cursor) {
        return stored(cursor)
                || (cursor.length() > 1
                        && cursor.indexOf(SEPARATOR) == cursor.length() - 1
                        && PlainNames.plain(cursor, 0, cursor.length() - 1, MAX_TENANT, false));
    }
}
