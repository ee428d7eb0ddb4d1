// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Where a draw's randomness comes from. `arm` is called when a case becomes ready for a
/// draw; the value must not be knowable by anyone (callers, parties, judges) at that moment.
/// BlockhashEntropy (the default) uses the hash of the arming block; a VRF adapter requests a
/// random word in `arm` and reports it `Ready` once the coordinator has fulfilled the request.
interface IDrawEntropy {
    enum Status {
        Pending,
        Ready,
        Expired
    }

    /// @notice Requests the randomness for a draw armed now.
    /// @return ticket What identifies this request to `entropyOf`.
    function arm() external returns (uint256 ticket);

    /// @notice Where a request stands, and its value once there is one.
    /// @param ticket What `arm` returned.
    /// @return value The random value once `Ready`; zero otherwise.
    /// @return status Pending (not yet knowable), Ready, or Expired (never will be: arm again).
    function entropyOf(uint256 ticket) external view returns (bytes32 value, Status status);
}
