// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title A Multicall3-compatible batcher for the dev chain.
/// @notice Real chains have Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11; the dev chain
/// gets this contract's runtime code at the same address. It implements the calls viem's batching
/// uses (`aggregate3`) and the usual block helpers, with the same ABI.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Makes each call in order and returns every result; a failed call whose
    /// `allowFailure` is false reverts the whole batch with that call's revert data. The value sent
    /// stays here: no call receives any.
    /// @param calls The calls: target, whether it may fail, calldata.
    /// @return returnData Each call's success and return (or revert) data, in order.
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Call3 calldata c = calls[i];
            (bool ok, bytes memory data) = c.target.call(c.callData);
            if (!ok && !c.allowFailure) {
                // Bubble up the first failure's revert data unchanged.
                assembly {
                    revert(add(data, 0x20), mload(data))
                }
            }
            returnData[i] = Result(ok, data);
        }
    }

    /// @notice The current block's number.
    /// @return The block number.
    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }

    /// @notice The current block's timestamp.
    /// @return The timestamp (unix seconds).
    function getCurrentBlockTimestamp() external view returns (uint256) {
        return block.timestamp;
    }

    /// @notice An address's balance in the native coin.
    /// @param addr The address.
    /// @return The balance, in wei.
    function getEthBalance(address addr) external view returns (uint256) {
        return addr.balance;
    }

    /// @notice The chain's id.
    /// @return The chain id.
    function getChainId() external view returns (uint256) {
        return block.chainid;
    }
}
