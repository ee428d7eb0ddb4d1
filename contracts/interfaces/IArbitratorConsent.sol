// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The arbitrator's consents: a party lets an arbitrable name it in disputes on its record.
interface IArbitratorConsent {
    /// @notice Whether `party` let `arbitrable` name it in disputes that go on its record.
    /// @param party The party.
    /// @param arbitrable The arbitrable.
    /// @return True when it did (and has not withdrawn it).
    function consented(address party, address arbitrable) external view returns (bool);
}
