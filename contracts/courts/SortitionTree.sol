// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Stake-weighted sortition over a pool that changes, read as of a past block.
/// @notice A Fenwick (binary indexed) tree of leaf weights in which every node keeps checkpoints
/// (block, value). A draw walks the tree once (O(log n) node reads) using the weights as they were
/// at a given block, so nobody can steer a draw by staking or unstaking after its randomness exists.
/// Leaves are numbered from 1. The tree knows leaves, not owners' weights: the caller (the registry)
/// keeps each owner's leaf and weight in a slot of its own and hands the tree the change. A leaf
/// whose weight drops to zero is given back and the next new owner reuses it: the node history
/// stays, and each leaf remembers the block its current owner took it, so a draw reading an earlier
/// block never credits the new owner with the old one's weight (`ownerAt`). Churn (stake, unstake,
/// repeat) therefore never uses up the tree.
/// Gas: the tree is only as tall as the pool needs (its capacity doubles as leaves are handed out,
/// and the capacity's own history tells a draw how tall the tree was at its block), so a weight
/// change writes about log2(judges) / 2 nodes on average, not log2(65,536); a node's latest value
/// is one slot; the tree's counters share one slot; and a node keeps an older value only when a draw
/// armed since may read it (see `_push`): between draws, changes overwrite. What a change costs
/// thus depends on whether a draw in this court was armed since the nodes on its path last changed:
/// a wallet should estimate with that headroom (about 22k gas per node of the path, 17 at most).
library SortitionTree {
    /// @dev Leaves 1..CAPACITY at most (owners at once).
    uint256 internal constant CAPACITY = 1 << 16;
    uint256 private constant VALUE_BITS = 128;
    uint256 private constant VALUE_MASK = (1 << 128) - 1;
    uint256 private constant BLOCK_MASK = (1 << 64) - 1;
    uint256 private constant U32 = (1 << 32) - 1;

    /// @notice The court's pool has no free leaf: it holds as many judges as a tree can.
    /// @param capacity The most judges a pool holds at once.
    error PoolFull(uint256 capacity);
    /// @notice A weight (a judge's, or a sum in the tree) does not fit in 128 bits.
    error WeightTooLarge();

    /// @dev A node's checkpoints, oldest first, each (block << 128 | value). The latest lives in
    /// `head` with the count (count << 192 | block << 128 | value): reading a node now, or as of any
    /// block since its last change, is one slot; `past[k]` holds checkpoint k < count - 1.
    struct Trace {
        uint256 head;
        mapping(uint256 => uint256) past;
    }

    struct Tree {
        mapping(uint256 => Trace) nodes;
        /// @dev Each leaf's owner and the block it took the leaf (takenAt << 160 | owner).
        mapping(uint256 => uint256) holders;
        /// @dev Leaves given back, a stack: free[0 .. nFree - 1].
        mapping(uint256 => uint256) free;
        /// @dev The counters in one slot: leaves handed out so far (the highest leaf number, bits
        /// 0-31), owners with a weight now (32-63), free leaves (64-95), the capacity now (96-127)
        /// and the last block a draw reading this tree was armed in (128-191, `markArmed`).
        uint256 meta;
        /// @dev The tree's capacity (a power of two, at least the leaves) over time, for draws.
        Trace capacity;
    }

    /// @notice Records that a draw reading this tree as of the end of this block was armed: from now
    /// on, a change keeps the value each node had at this block.
    function markArmed(Tree storage t) internal {
        uint256 m = t.meta;
        if ((m >> 128) != block.number) t.meta = (m & VALUE_MASK) | (block.number << 128);
    }

    /// @notice Moves leaf `leaf` (0: none yet) from weight `old` to weight `weight`; a new owner
    /// `who` gets a leaf (a free one first), a weight of zero gives the leaf back.
    /// @param t The tree.
    /// @param who The leaf's owner (recorded with the block when it takes a leaf).
    /// @param leaf Its leaf now, 0 when it has none (then `old` is 0).
    /// @param old Its weight now.
    /// @param weight Its weight from now on.
    /// @return The owner's leaf now (0 when its weight is zero).
    function update(Tree storage t, address who, uint256 leaf, uint256 old, uint256 weight)
        internal
        returns (uint256)
    {
        if (old == weight) return leaf;
        if (weight > VALUE_MASK) revert WeightTooLarge();
        uint256 m = t.meta;
        uint256 cap = (m >> 96) & U32;
        if (leaf == 0) {
            uint256 nFree = (m >> 64) & U32;
            if (nFree > 0) {
                leaf = t.free[nFree - 1];
                m -= 1 << 64;
            } else {
                uint256 handed = m & U32;
                if (handed == CAPACITY) revert PoolFull(CAPACITY);
                leaf = handed + 1;
                m += 1;
                if (leaf > cap) {
                    // The tree doubles: the new top node starts as the old one (the whole pool).
                    uint256 grown = cap == 0 ? 1 : cap * 2;
                    if (cap != 0) _push(t.nodes[grown], _latest(t.nodes[cap]), m >> 128);
                    _push(t.capacity, grown, m >> 128);
                    m = (m & ~(U32 << 96)) | (grown << 96);
                    cap = grown;
                }
            }
            t.holders[leaf] = (block.number << 160) | uint256(uint160(who));
            m += 1 << 32;
        }
        if (weight == 0) {
            // The leaf's history keeps the weight for draws that read an earlier block; its holder
            // stays recorded until the next one takes it.
            uint256 nFree = (m >> 64) & U32;
            t.free[nFree] = leaf;
            m += 1 << 64;
            m -= 1 << 32;
        }
        t.meta = m;
        bool up = weight > old;
        uint256 delta = up ? weight - old : old - weight;
        uint256 armedAt = m >> 128;
        for (uint256 i = leaf; i <= cap; i += i & (~i + 1)) {
            Trace storage node = t.nodes[i];
            uint256 v = _latest(node);
            _push(node, up ? v + delta : v - delta, armedAt);
        }
        return weight == 0 ? 0 : leaf;
    }

    /// @notice Who held `leaf` at the end of block `atBlock`: its owner, or zero when the owner
    /// took it later (the one who held it then has left, and cannot be drawn).
    function ownerAt(Tree storage t, uint256 leaf, uint64 atBlock) internal view returns (address) {
        uint256 h = t.holders[leaf];
        return (h >> 160) <= atBlock ? address(uint160(h)) : address(0);
    }

    /// @notice Leaves handed out so far (the highest leaf number).
    function leaves(Tree storage t) internal view returns (uint256) {
        return t.meta & U32;
    }

    /// @notice Owners with a weight above zero now.
    function members(Tree storage t) internal view returns (uint256) {
        return (t.meta >> 32) & U32;
    }

    /// @notice The sum of all weights now.
    function latestTotal(Tree storage t) internal view returns (uint256) {
        return _latest(t.nodes[(t.meta >> 96) & U32]);
    }

    /// @notice The sum of all weights as they were at the end of block `atBlock`.
    function totalAt(Tree storage t, uint64 atBlock) internal view returns (uint256) {
        uint256 cap = valueAt(t.capacity, atBlock);
        return cap == 0 ? 0 : valueAt(t.nodes[cap], atBlock);
    }

    /// @notice The sum of the weights of leaves 1..leaf at the end of block `atBlock`.
    function prefixAt(Tree storage t, uint256 leaf, uint64 atBlock) internal view returns (uint256 sum) {
        for (uint256 i = leaf; i > 0; i -= i & (~i + 1)) {
            sum += valueAt(t.nodes[i], atBlock);
        }
    }

    /// @notice The leaf whose weight range holds `point` (0 <= point < totalAt), and where that
    /// range starts: leaf k covers [prefix(k-1), prefix(k)). Walks the tree as tall as it was then.
    function find(Tree storage t, uint256 point, uint64 atBlock) internal view returns (uint256 leaf, uint256 start) {
        uint256 pos = 0;
        uint256 rest = point;
        for (uint256 step = valueAt(t.capacity, atBlock) >> 1; step > 0; step >>= 1) {
            uint256 v = valueAt(t.nodes[pos + step], atBlock);
            if (v <= rest) {
                pos += step;
                rest -= v;
            }
        }
        return (pos + 1, point - rest);
    }

    /// @notice A trace's value at the end of block `atBlock`: the last checkpoint at or before it.
    function valueAt(Trace storage tr, uint64 atBlock) internal view returns (uint256) {
        uint256 h = tr.head;
        uint256 n = h >> 192;
        if (n == 0) return 0;
        // The common case: the node has not changed since.
        if (((h >> VALUE_BITS) & BLOCK_MASK) <= atBlock) return h & VALUE_MASK;
        // The last archived checkpoint (index < n - 1) at or before atBlock, if any.
        uint256 lo = 0;
        uint256 hi = n - 1;
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if ((tr.past[mid] >> VALUE_BITS) <= atBlock) lo = mid + 1;
            else hi = mid;
        }
        return lo == 0 ? 0 : tr.past[lo - 1] & VALUE_MASK;
    }

    function _latest(Trace storage tr) private view returns (uint256) {
        return tr.head & VALUE_MASK;
    }

    /// @dev Writes the node's value from this block on. History is kept only where a draw can read
    /// it: when a draw reading this tree was armed at or after the head's block (`armedAt`), the head
    /// moves into `past` (a new slot) and the new value becomes the head; otherwise no armed draw
    /// reads any block from the head's on before this one (a draw armed in this block reads its
    /// end, the new value), so the head is overwritten in place, at a fifth of the cost. `valueAt`
    /// is therefore exact at every block a draw was armed in and at the latest block; at other
    /// past blocks it may show a later value.
    function _push(Trace storage tr, uint256 value, uint256 armedAt) private {
        if (value > VALUE_MASK) revert WeightTooLarge();
        uint256 h = tr.head;
        uint256 n = h >> 192;
        if (n > 0 && ((h >> VALUE_BITS) & BLOCK_MASK) <= armedAt) {
            tr.past[n - 1] = h & ((1 << 192) - 1);
            n += 1;
        } else if (n == 0) {
            n = 1;
        }
        tr.head = (n << 192) | (uint256(uint64(block.number)) << VALUE_BITS) | value;
    }
}
