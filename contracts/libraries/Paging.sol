// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title The length of one page of a list, for every paged view.
library Paging {
    /// @dev How many of `total` items a page from `offset` holds, at most `limit`. Written so that
    /// no offset or limit can overflow: a huge limit means "to the end", an offset past the end an
    /// empty page.
    function length(uint256 total, uint256 offset, uint256 limit) internal pure returns (uint256 n) {
        n = offset >= total ? 0 : total - offset;
        if (limit < n) n = limit;
    }
}
