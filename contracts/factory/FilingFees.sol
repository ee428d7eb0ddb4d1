// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FactoryBase} from "./FactoryBase.sol";

/// @title The CaseFactory's filing fee in the native coin, and the payment references filings use.
/// @notice The filing fee is paid here first (`payFilingFee`, with a reference the payer chooses),
/// forwarded to the fee recipient and recorded; a filing takes only a reference its own caller paid
/// and has not used, so the fee holds for anyone who goes to the chain directly. A reference (paid in
/// the coin here, or the nonce of a token fee's authorization, TokenFees) files one case.
abstract contract FilingFees is FactoryBase {
    /// @notice A payment reference may not be zero.
    error PaymentRefRequired();
    /// @notice The caller filed a case with this reference already; a reference files one case.
    /// @param paymentRef The reference.
    /// @param caseAddr The case it filed.
    error PaymentRefUsed(bytes32 paymentRef, address caseAddr);
    /// @notice The caller paid no filing fee under this reference (`payFilingFee` first).
    /// @param paymentRef The reference.
    /// @param plaintiff The caller.
    error FilingFeeNotPaid(bytes32 paymentRef, address plaintiff);
    /// @notice The caller paid a filing fee under this reference already (it files with `fileCase`).
    /// @param paymentRef The reference.
    error FilingFeeAlreadyPaid(bytes32 paymentRef);
    /// @notice Less than the filing fee was sent.
    /// @param required The filing fee.
    /// @param sent What was sent.
    error FilingFeeTooLow(uint256 required, uint256 sent);
    /// @notice Forwarding the fee (or returning a token) failed.
    error FeeTransferFailed();

    /// @notice A filing fee was paid (and forwarded to the fee recipient).
    /// @param payer Who paid, the only one who may file with it.
    /// @param paymentRef The reference it was paid under.
    /// @param amount What was paid.
    event FilingFeePaid(address indexed payer, bytes32 indexed paymentRef, uint256 amount);
    /// @notice The owner changed where filing fees go and how much the native-coin fee is.
    /// @param feeRecipient Where fees go now.
    /// @param filingFee The fee now.
    event FilingChanged(address feeRecipient, uint256 filingFee);

    /// @notice Where filing fees go.
    /// @return The recipient.
    address public feeRecipient;
    /// @notice The filing fee in the native coin.
    /// @return The fee, in wei.
    uint256 public filingFee;
    /// @dev Keyed by (paymentRef, plaintiff): a reference is single-use for the plaintiff who paid,
    /// and nobody who sees a pending payment can burn it by filing with it first.
    mapping(bytes32 => address) internal refUsedBy;
    /// @dev Filing fees paid, by the same (paymentRef, payer) key: amount + 1, so 0 means unpaid.
    mapping(bytes32 => uint256) internal feePaidPlusOne;

    /// @param feeRecipient_ Where filing fees go.
    /// @param filingFee_ The filing fee in the native coin.
    constructor(address feeRecipient_, uint256 filingFee_) {
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
    }

    /// @notice Pays the filing fee for one future case under `paymentRef` (any non-zero value the
    /// payer picks, unique for it). The fee goes straight to the fee recipient.
    /// @param paymentRef The reference the caller will file with.
    function payFilingFee(bytes32 paymentRef) external payable {
        if (paymentRef == bytes32(0)) revert PaymentRefRequired();
        if (msg.value < filingFee) revert FilingFeeTooLow(filingFee, msg.value);
        bytes32 refKey = keccak256(abi.encode(paymentRef, msg.sender));
        if (feePaidPlusOne[refKey] != 0) revert FilingFeeAlreadyPaid(paymentRef);
        // A reference that already filed (its fee paid in the token) would take the fee and file nothing.
        address usedBy = refUsedBy[refKey];
        if (usedBy != address(0)) revert PaymentRefUsed(paymentRef, usedBy);
        feePaidPlusOne[refKey] = msg.value + 1;
        emit FilingFeePaid(msg.sender, paymentRef, msg.value);
        (bool ok,) = feeRecipient.call{value: msg.value}("");
        if (!ok) revert FeeTransferFailed();
    }

    /// @notice Sets where filing fees go and the native-coin fee; only the owner. Fees paid before
    /// keep filing.
    /// @param feeRecipient_ Where fees go (not zero).
    /// @param filingFee_ The fee in the native coin.
    function setFiling(address feeRecipient_, uint256 filingFee_) external onlyOwner {
        if (feeRecipient_ == address(0)) revert InvalidParameter();
        feeRecipient = feeRecipient_;
        filingFee = filingFee_;
        emit FilingChanged(feeRecipient_, filingFee_);
    }

    /// @notice The case `plaintiff` filed with `paymentRef`, or zero if it has not used it.
    /// @param paymentRef The reference.
    /// @param plaintiff Who paid (and files with) it.
    /// @return The case, or zero.
    function paymentRefUsedBy(bytes32 paymentRef, address plaintiff) external view returns (address) {
        return refUsedBy[keccak256(abi.encode(paymentRef, plaintiff))];
    }

    /// @notice The filing fee `payer` paid under `paymentRef`, and the case that used it, if any.
    /// @param paymentRef The reference.
    /// @param payer Who paid.
    /// @return paid Whether a native-coin fee was paid under it.
    /// @return amount What was paid.
    /// @return usedBy The case filed with it (a token fee's case too), or zero.
    function feePayment(bytes32 paymentRef, address payer)
        external
        view
        returns (bool paid, uint256 amount, address usedBy)
    {
        bytes32 refKey = keccak256(abi.encode(paymentRef, payer));
        uint256 p = feePaidPlusOne[refKey];
        return (p != 0, p == 0 ? 0 : p - 1, refUsedBy[refKey]);
    }

    /// @dev The caller's key for `paymentRef`, refused when zero or already used to file. Keyed by
    /// the caller, so nobody files with another's payment; one case per reference.
    function _unusedRef(bytes32 paymentRef) internal view returns (bytes32 refKey) {
        if (paymentRef == bytes32(0)) revert PaymentRefRequired();
        refKey = keccak256(abi.encode(paymentRef, msg.sender));
        address usedBy = refUsedBy[refKey];
        if (usedBy != address(0)) revert PaymentRefUsed(paymentRef, usedBy);
    }
}
