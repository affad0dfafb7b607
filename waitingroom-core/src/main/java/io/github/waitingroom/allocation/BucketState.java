package io.github.waitingroom.allocation;

/**
 * One bucket of the line as the allocator sees it.
 *
 * @param bucketId the bucket's start (epoch second); older buckets are served first
 * @param waiting how many users wait in it, across all nodes
 * @param eligibleSlots how many of them may be admitted now (0 in a view before allocation)
 */
public record BucketState(long bucketId, long waiting, long eligibleSlots) {}
