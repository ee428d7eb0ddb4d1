// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Stake-weighted sortition over a pool that changes, read as of a past block.
/// @notice A Fenwick (binary indexed) tree of judge weights in which every node keeps checkpoints
/// (block, value). A draw walks the tree once (O(log n) node reads) using the weights as they were
/// at a given block, so nobody can steer a draw by staking or unstaking after its randomness exists.
/// Leaves are numbered from 1. A judge whose weight drops to zero gives its leaf back and the next
/// new judge reuses it: the node history stays, and each leaf remembers the block its current owner
/// took it, so a draw reading an earlier block never credits the new owner with the old one's weight
/// (`ownerAt`). Churn (stake, unstake, repeat) therefore never uses up the tree.
/// Gas: the tree is only as tall as the pool needs (its capacity doubles as leaves are handed out,
/// and the capacity's own history tells a draw how tall the tree was at its block), so a weight
/// change writes about log2(judges) nodes, not log2(65,536); a node's latest value is one slot;
/// and a node keeps an older value only when a draw armed since may read it (see `_push`): between
/// draws, changes overwrite. What a change costs thus depends on whether a draw in this court was
/// armed since the nodes on its path last changed: a wallet should estimate with that headroom
/// (about 22k gas per node of the path, 17 at most per court).
library SortitionTree {
    /// @dev Leaves 1..CAPACITY at most (judges at once).
    uint256 internal constant CAPACITY = 1 << 16;
    uint256 private constant VALUE_BITS = 128;
    uint256 private constant VALUE_MASK = (1 << 128) - 1;
    uint256 private constant BLOCK_MASK = (1 << 64) - 1;
    uint256 private constant LEAF_BITS = 32;
    uint256 private constant LEAF_MASK = (1 << 32) - 1;

    error PoolFull(uint256 capacity);
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
        /// @dev Each owner's weight and leaf (weight << 32 | leaf); zero when it has none.
        mapping(address => uint256) seats;
        /// @dev Leaves handed out so far (the highest leaf number), and leaves given back since.
        uint256 leaves;
        uint256[] free;
        /// @dev How many owners have a weight above zero now.
        uint256 members;
        /// @dev The tree's capacity (a power of two, at least `leaves`) over time: its value is the capacity.
        Trace capacity;
        /// @dev The last block a draw reading this tree was armed in (`markArmed`).
        uint256 armedAt;
    }

    /// @notice Records that a draw reading this tree as of the end of this block was armed: from now
    /// on, a change keeps the value each node had at this block.
    function markArmed(Tree storage t) internal {
        if (t.armedAt != block.number) t.armedAt = block.number;
    }

    /// @notice Sets `who`'s weight from now on; zero takes it out of draws and gives its leaf back.
    function setWeight(Tree storage t, address who, uint256 weight) internal {
        uint256 seat = t.seats[who];
        uint256 old = seat >> LEAF_BITS;
        if (old == weight) return;
        if (weight > VALUE_MASK) revert WeightTooLarge();
        uint256 leaf = seat & LEAF_MASK;
        if (leaf == 0) {
            uint256 nFree = t.free.length;
            if (nFree > 0) {
                leaf = t.free[nFree - 1];
                t.free.pop();
            } else {
                if (t.leaves == CAPACITY) revert PoolFull(CAPACITY);
                leaf = ++t.leaves;
                uint256 cap = _latest(t.capacity);
                if (leaf > cap) {
                    // The tree doubles: the new top node starts as the old one (the whole pool).
                    uint256 grown = cap == 0 ? 1 : cap * 2;
                    if (cap != 0) _push(t.nodes[grown], _latest(t.nodes[cap]), t.armedAt);
                    _push(t.capacity, grown, t.armedAt);
                }
            }
            t.holders[leaf] = (block.number << 160) | uint256(uint160(who));
            t.members += 1;
        }
        if (weight == 0) {
            // The leaf's history keeps the weight for draws that read an earlier block; its holder
            // stays recorded until the next one takes it.
            t.seats[who] = 0;
            t.free.push(leaf);
            t.members -= 1;
        } else {
            t.seats[who] = (weight << LEAF_BITS) | leaf;
        }
        bool up = weight > old;
        uint256 delta = up ? weight - old : old - weight;
        uint256 top = _latest(t.capacity);
        uint256 armedAt = t.armedAt;
        for (uint256 i = leaf; i <= top; i += i & (~i + 1)) {
            Trace storage node = t.nodes[i];
            uint256 v = _latest(node);
            _push(node, up ? v + delta : v - delta, armedAt);
        }
    }

    /// @notice Who held `leaf` at the end of block `atBlock`: its owner, or zero when the owner
    /// took it later (the one who held it then has left, and cannot be drawn).
    function ownerAt(Tree storage t, uint256 leaf, uint64 atBlock) internal view returns (address) {
        uint256 h = t.holders[leaf];
        return (h >> 160) <= atBlock ? address(uint160(h)) : address(0);
    }

    /// @notice The leaf `who` holds now (0: none).
    function leafOf(Tree storage t, address who) internal view returns (uint256) {
        return t.seats[who] & LEAF_MASK;
    }

    /// @notice The weight `who` has now.
    function weightOf(Tree storage t, address who) internal view returns (uint256) {
        return t.seats[who] >> LEAF_BITS;
    }

    /// @notice The sum of all weights now.
    function latestTotal(Tree storage t) internal view returns (uint256) {
        return _latest(t.nodes[_latest(t.capacity)]);
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
